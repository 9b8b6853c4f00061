package redact

import (
	"strings"
	"testing"
)

func TestTextHexAndBase64(t *testing.T) {
	runText(t, []textCase{
		{"md5", "etag d41d8cd98f00b204e9800998ecf8427e", "etag [redacted]"},
		{"sha256", "hmac=" + strings.Repeat("9f86d081884c7d65", 4), "hmac=[redacted]"},
		{"git short hash", "fixed in 3f2a1bc, see 1a2b3c4d5e6f", "fixed in 3f2a1bc, see 1a2b3c4d5e6f"},
		{"css color", "color: #ffcc00; background: #FFF", "color: #ffcc00; background: #FFF"},
		{"uuid with dashes", "id 123e4567-e89b-12d3-a456-426614174000", "id 123e4567-e89b-12d3-a456-426614174000"},
		{"long digits only", "order 12345678901234567890123456789012", "order 12345678901234567890123456789012"},
		{"aws secret", "secret wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY here", "secret [redacted] here"},
		{"base64url random", "id_token_hint k9Xq2LmZ7vB4nR1tY8wP3sD6fG0hJ5aQ2cV7bN9mK1 end", "id_token_hint [redacted] end"},
		{"camelCase identifier", "at MyVeryLongJavaClassNameFactoryBeanImpl2Test.run", "at MyVeryLongJavaClassNameFactoryBeanImpl2Test.run"},
		{"url slug", "/blog/How-To-Build-A-REST-API-In-Go-2024-Edition", "/blog/How-To-Build-A-REST-API-In-Go-2024-Edition"},
		{"lower-case long word run", "supercalifragilisticexpialidocious2000andmorewords", "supercalifragilisticexpialidocious2000andmorewords"},
	})
}
