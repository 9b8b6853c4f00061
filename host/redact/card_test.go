package redact

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestTextCards(t *testing.T) {
	runText(t, []textCase{
		{"visa together", "card 4111111111111111 ok", "card [redacted] ok"},
		{"visa spaced", "card 4111 1111 1111 1111", "card [redacted]"},
		{"mastercard dashed", "5500-0000-0000-0004.", "[redacted]."},
		{"amex 4-6-5", "amex 3782 822463 10005", "amex [redacted]"},
		{"19 digits", "unionpay 6221 2600 0000 0000 001", "unionpay [redacted]"},
		{"16 of 19 pass", "6011 0009 9013 9424 123", "[redacted] 123"},
		{"card then a year", "4111 1111 1111 1111 2024", "[redacted] 2024"},
		{"number then card", "qty 12 4111-1111-1111-1111", "qty 12 [redacted]"},
		{"fails luhn", "4111 1111 1111 1112", "4111 1111 1111 1112"},
		{"ms timestamp passes luhn but starts with 1", "t=1712345678907", "t=1712345678907"},
		{"too short", "411111111111", "411111111111"},
		{"too long", "41111111111111111111111", "41111111111111111111111"},
		{"glued to a word", "id4111111111111111", "id4111111111111111"},
		{"groups of one", "2 3 4 5 6 7 8 9 1 2 3 4 5 6 7 8", "2 3 4 5 6 7 8 9 1 2 3 4 5 6 7 8"},
		{"phone", "+1 415-555-0100", "+1 415-555-0100"},
	})
}

func TestLuhn(t *testing.T) {
	tests := []struct {
		digits string
		want   bool
	}{
		{"4111111111111111", true},
		{"79927398713", true},
		{"79927398710", false},
		{"0", true},
	}
	for _, tt := range tests {
		t.Run(tt.digits, func(t *testing.T) {
			assert.Equal(t, tt.want, luhn(tt.digits, []span{{0, len(tt.digits)}}))
		})
	}
}
