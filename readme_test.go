package fiatramp_test

import (
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestReadmeSnippetsAreExamples keeps every Go snippet of README.md
// compiled: each must stand, line for line, in an Example function of
// this package (example_test.go, example_control_test.go), of package
// sandbox or of package webhook.
func TestReadmeSnippetsAreExamples(t *testing.T) {
	readme, err := os.ReadFile("README.md")
	require.NoError(t, err)
	var examples []byte
	for _, f := range []string{"example_test.go", "example_control_test.go", "sandbox/example_test.go", "webhook/example_test.go"} {
		b, err := os.ReadFile(f)
		require.NoError(t, err)
		examples = append(examples, b...)
	}
	flat := func(s string) string { return strings.Join(strings.Fields(s), " ") }
	body := flat(string(examples))

	snippets := regexp.MustCompile("(?s)```go\n(.*?)```").FindAllStringSubmatch(string(readme), -1)
	require.NotEmpty(t, snippets)
	for _, s := range snippets {
		require.Contains(t, body, flat(s[1]), "README snippet is in no Example function")
	}
}
