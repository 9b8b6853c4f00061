package engine

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/openchrome/openchrome/protocol"
)

func TestComputerRefusesBadInput(t *testing.T) {
	tests := []struct {
		name string
		in   computerIn
		want string // in the message, or in the hint
	}{
		{"type without text", computerIn{Action: "type"}, "type needs text"},
		{"key without key", computerIn{Action: "key"}, `key needs key`},
		{"scroll without scroll", computerIn{Action: "scroll", Coordinate: []float64{1, 1}}, "scroll needs scroll"},
		{"scroll by nothing", computerIn{Action: "scroll", Coordinate: []float64{1, 1}, Scroll: []float64{0, 0}}, "scroll needs scroll"},
		{"drag without to", computerIn{Action: "left_click_drag", Coordinate: []float64{1, 1}}, "to is required"},
		{"click without coordinate", computerIn{Action: "left_click"}, "coordinate is required"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.in.validate()
			var pe *protocol.Error
			require.True(t, errors.As(err, &pe), "%v", err)
			assert.Equal(t, protocol.CodeBadRequest, pe.Code)
			assert.Contains(t, pe.Message+" "+pe.Hint, tt.want)
		})
	}
	named := computerIn{Action: "key", Text: "Return"}
	require.NoError(t, named.validate(), "the key in text, as Anthropic's computer tool names it")
	assert.Equal(t, computerIn{Action: "key", Key: "Return"}, named)
	for _, ok := range []computerIn{
		{Action: "screenshot"},
		{Action: "key", Key: "Enter"},
		{Action: "type", Text: "hi"},
		{Action: "left_click", Coordinate: []float64{3, 4}},
	} {
		assert.NoError(t, ok.validate(), "%+v", ok)
	}
}
