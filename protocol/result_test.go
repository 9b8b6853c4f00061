package protocol

import (
	"errors"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestErrorResult(t *testing.T) {
	tests := []struct {
		name     string
		err      error
		wantText string
		want     *Error
	}{
		{"coded with hint",
			fmt.Errorf("engine: %w", Errorf(CodeStaleRef, "ref e5 is gone").WithHint("call read_page for fresh refs")),
			"stale_ref: ref e5 is gone\nhint: call read_page for fresh refs",
			&Error{Code: CodeStaleRef, Message: "ref e5 is gone", Hint: "call read_page for fresh refs"}},
		{"coded without hint",
			Errorf(CodeTabNotFound, "no tab 7"),
			"tab_not_found: no tab 7",
			&Error{Code: CodeTabNotFound, Message: "no tab 7"}},
		{"uncoded errors do not leak their text",
			errors.New("open /home/alice/secret: denied"),
			"internal: internal error; the daemon's log has the details\nhint: run: openchrome doctor",
			&Error{Code: CodeInternal, Message: "internal error; the daemon's log has the details", Hint: "run: openchrome doctor"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := ErrorResult(tt.err)
			assert.True(t, r.IsError)
			require.Len(t, r.Content, 1)
			assert.Equal(t, tt.wantText, r.Content[0].Text)
			got := ResultError(r)
			require.NotNil(t, got)
			assert.Equal(t, tt.want.Code, got.Code)
			assert.Equal(t, tt.want.Message, got.Message)
			assert.Equal(t, tt.want.Hint, got.Hint)
		})
	}
	assert.Nil(t, ResultError(TextResult("ok")))
	assert.Nil(t, ResultError(nil))
}
