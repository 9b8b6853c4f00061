package browser

import "encoding/json"

// carried holds the site's secrets a command read with its answer, when
// asked (WithSecrets): the call masks its result with them and need not ask
// profile.secrets after. Embedded in an answer, it reads the answer's
// "secrets" and never writes them back: no answer built from a value that
// embeds it can show them. Only Secrets hands them out.
type carried struct {
	Values secretValues `json:"secrets,omitzero"`
	// HeldValues are what the page's secret fields held (a password the
	// person typed): the engine masks them from then on, not only in this
	// call.
	HeldValues secretValues `json:"held,omitzero"`
}

// Secrets are the values of the site's cookies and stored credentials read
// with the answer, and whether they were.
func (c carried) Secrets() ([]string, bool) { return c.Values.values, c.Values.read }

// Held are the values the page's secret fields held when the secrets were
// read: a password, a one-time code.
func (c carried) Held() []string { return c.HeldValues.values }

// secretValues decode from JSON and are never encoded: a field, not
// embedded, so that these methods stay its own and are not an answer's.
type secretValues struct {
	values []string
	read   bool
}

func (s *secretValues) UnmarshalJSON(b []byte) error {
	var v []string
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	s.values, s.read = v, true
	return nil
}

// IsZero has omitzero leave them out of every answer.
func (secretValues) IsZero() bool { return true }

// MarshalJSON writes nothing of them, should a field lose its omitzero.
func (secretValues) MarshalJSON() ([]byte, error) { return []byte("null"), nil }

// Carrier is an answer that can bring the site's secrets with it.
type Carrier interface {
	Secrets() ([]string, bool)
	Held() []string
}

// WithSecrets has a command read the site's secrets after it has run, as
// profile.secrets would, and bring them with its answer: a navigation
// (TabCreate, TabNavigate, TabGo) from the page it lands on, a read
// (PageSnapshot) from the page it read, an action (ElementAct) from the
// page it left the tab on.
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
