package protocol

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestCodesMatchGolden(t *testing.T) {
	b, err := os.ReadFile("testdata/codes.json")
	require.NoError(t, err)
	var want []Code
	require.NoError(t, json.Unmarshal(b, &want))
	assert.Equal(t, want, Codes())
	for _, c := range want {
		assert.True(t, c.Known())
	}
	assert.False(t, Code("gremlins").Known())
}

func TestErrorIsComparesCodes(t *testing.T) {
	err := fmt.Errorf("engine: navigate: %w", Errorf(CodeStaleRef, "ref %s is gone", "e5"))
	assert.ErrorIs(t, err, ErrStaleRef)
	assert.NotErrorIs(t, err, ErrTimeout)

	var e *Error
	require.True(t, errors.As(err, &e))
	assert.Equal(t, "ref e5 is gone", e.Message)
}

func TestErrorCauseStaysOffTheWire(t *testing.T) {
	cause := errors.New("open /home/alice/.openchrome/secret: permission denied")
	e := Errorf(CodeInternal, "could not save the task").WithHint("run: openchrome doctor").WithCause(cause)
	assert.ErrorIs(t, e, cause)

	b, err := json.Marshal(e)
	require.NoError(t, err)
	assert.JSONEq(t, `{"code":"internal","message":"could not save the task","hint":"run: openchrome doctor"}`, string(b))
	assert.Equal(t, "internal: could not save the task", e.Error())
}
