package types_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fiatramp/fiatramp-go/types"
)

func TestWebhookURLDecodes(t *testing.T) {
	cases := map[string]types.WebhookURL{
		`"https://example.com/hooks"`:                              "https://example.com/hooks",
		` "https://example.com/h\u0026x" `:                         "https://example.com/h&x",
		`{"webhook_url":"https://a.example/h"}`:                    "https://a.example/h",
		`{"url":"https://b.example/h"}`:                            "https://b.example/h",
		`{"url":"https://b.example/h","webhook_url":"https://a/"}`: "https://a/",
		`{"webhook_url":null,"url":"https://b/"}`:                  "https://b/",
	}
	for body, want := range cases {
		var u types.WebhookURL
		require.NoError(t, json.Unmarshal([]byte(body), &u), body)
		require.Equal(t, want, u, body)
	}
}

func TestWebhookURLRefusesOtherValues(t *testing.T) {
	for _, body := range []string{`1`, `true`, `["https://a/"]`, `{"url":1}`} {
		u := types.WebhookURL("kept")
		require.Error(t, json.Unmarshal([]byte(body), &u), body)
		require.Equal(t, types.WebhookURL("kept"), u, "unchanged on error: %s", body)
	}
	u := types.WebhookURL("kept")
	require.NoError(t, json.Unmarshal([]byte(`null`), &u))
	require.Equal(t, types.WebhookURL("kept"), u)
}

func FuzzWebhookURL(f *testing.F) {
	f.Add([]byte(`"https://example.com/hooks"`))
	f.Add([]byte(`{"webhook_url":"https://a/","url":"https://b/"}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		var u types.WebhookURL
		_ = json.Unmarshal(data, &u)
	})
}
