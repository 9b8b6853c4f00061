package browser

import "encoding/json"

// carried holds the site's secrets a command read with its answer, when
// asked (WithSecrets): the call masks its result with them and need not ask
// profile.secrets after. Unexported and without exported fields, so that no
// answer built from a value that embeds it can show them; only Secrets
// hands them out.
type carried struct {
	values []string
	read   bool
}

// Secrets are the values of the site's cookies and stored credentials read
// with the answer, and whether they were.
func (c carried) Secrets() ([]string, bool) { return c.values, c.read }

func (c *carried) carry(values *[]string) {
	if values != nil {
		c.values, c.read = *values, true
	}
}

// Carrier is an answer that can bring the site's secrets with it.
type Carrier interface{ Secrets() ([]string, bool) }

// WithSecrets has a command read the site's secrets after it has run, as
// profile.secrets would, and bring them with its answer: a navigation
// (TabCreate, TabNavigate, TabGo) from the page it lands on, a read
// (PageSnapshot) from the page it read.
func WithSecrets[T Carrier](c Command[T]) Command[T] {
	var params map[string]any
	if err := json.Unmarshal(c.Params, &params); err != nil {
		panic("browser: params of " + c.Action + ": " + err.Error()) // our own, from command
	}
	params["secrets"] = true
	b, err := json.Marshal(params)
	if err != nil {
		panic("browser: params of " + c.Action + ": " + err.Error())
	}
	c.Params = b
	return c
}
