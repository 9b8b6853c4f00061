package engine

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openchrome/openchrome/protocol"
)

// TestADamagedTaskIsSaidAndCanBeEnded breaks a task's meta.json: the task
// tools say so with a code and the fix, the list shows it, cancel ends it,
// and the other tasks are untouched.
func TestADamagedTaskIsSaidAndCanBeEnded(t *testing.T) {
	e, _ := envelopeEngine(t)
	good := openEnvelopeFor(t, e, "")
	bad := openEnvelopeFor(t, e, "")
	path := filepath.Join(e.tasks.Store().Root(), bad, "meta.json")
	require.NoError(t, os.WriteFile(path, []byte(`{"id":`), 0o600))

	for tool, extra := range map[string]string{"oc_task_get": "", "oc_task_wait": `,"timeout_ms":10`} {
		err := wantError(t, run(t, e, tool, `{"task_id":"`+bad+`"`+extra+`}`), protocol.CodeConflict)
		assert.Contains(t, err.Message, path, tool)
		assert.Contains(t, err.Hint, "oc_task_cancel", tool)
	}
	var list struct {
		Tasks []struct {
			ID      string `json:"id"`
			Damaged string `json:"damaged"`
		} `json:"tasks"`
	}
	require.NoError(t, json.Unmarshal([]byte(textOf(t, run(t, e, "oc_task_list", `{}`))), &list))
	damaged := map[string]string{}
	for _, tk := range list.Tasks {
		damaged[tk.ID] = tk.Damaged
	}
	require.Contains(t, damaged, bad, "listed, not dropped")
	assert.NotEmpty(t, damaged[bad])
	assert.Empty(t, damaged[good])

	var ended struct {
		Status string `json:"status"`
		Error  struct {
			Code string `json:"code"`
		} `json:"error"`
	}
	require.NoError(t, json.Unmarshal([]byte(textOf(t, run(t, e, "oc_task_cancel", `{"task_id":"`+bad+`"}`))), &ended))
	assert.Equal(t, "CANCELLED", ended.Status)
	assert.Equal(t, "damaged", ended.Error.Code)
	textOf(t, run(t, e, "oc_task_get", `{"task_id":"`+good+`"}`))
}

// TestFormInputSaysABadTabOnce: a tab that is not there, or not the
// agent's, is the call's error with its code, not one per field.
func TestFormInputSaysABadTabOnce(t *testing.T) {
	e, fb := newEngine(t, protocol.Version, tabs(nil, nil))
	wantError(t, run(t, e, "form_input", `{"tabId":99,"fields":[{"ref":"e1","value":"x"},{"ref":"e2","value":"y"}]}`),
		protocol.CodeTabNotFound)
	assert.Equal(t, []string{"tab.get"}, fb.actions(), "nothing was filled")
}
