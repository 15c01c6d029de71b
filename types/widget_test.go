package types_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fiatramp/fiatramp-go/types"
)

const fuzzWidgetJSON = `{"widget_link":"https://widget.example.com/?token=eyJhbGciOi.x-y_z"}`

func TestWidget(t *testing.T) {
	var w types.Widget
	require.NoError(t, json.Unmarshal([]byte(fuzzWidgetJSON), &w))
	require.Equal(t, types.Widget{
		WidgetLink: "https://widget.example.com/?token=eyJhbGciOi.x-y_z",
		Raw:        json.RawMessage(fuzzWidgetJSON),
	}, w)
	require.NoError(t, json.Unmarshal([]byte(`{"other":1}`), &w))
	require.Equal(t, "", w.WidgetLink, "a second decode replaces the whole value")
	require.Error(t, json.Unmarshal([]byte(`{"widget_link":7}`), &w))
}

func FuzzWidget(f *testing.F) {
	fuzzDecode(f, decodeSpec[types.Widget]{prior: fuzzWidgetJSON, hasRaw: true})
}
