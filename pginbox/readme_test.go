package pginbox_test

import (
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/stretchr/testify/require"

	"github.com/fiatramp/fiatramp-go/pginbox"
)

// TestReadmeSnippetsAreExamples keeps every Go snippet of README.md
// compiled: each must stand, line for line, in an Example function.
func TestReadmeSnippetsAreExamples(t *testing.T) {
	readme, err := os.ReadFile("README.md")
	require.NoError(t, err)
	examples, err := os.ReadFile("example_test.go")
	require.NoError(t, err)
	flat := func(s string) string { return strings.Join(strings.Fields(s), " ") }
	body := flat(string(examples))
	snippets := regexp.MustCompile("(?s)```go\n(.*?)```").FindAllStringSubmatch(string(readme), -1)
	require.Len(t, snippets, 2)
	for _, s := range snippets {
		require.Contains(t, body, flat(s[1]), "README snippet is in no Example function")
	}

	// The table README shows is the one Migrate creates.
	sqlBlock := regexp.MustCompile("(?s)```sql\n(.*?)```").FindStringSubmatch(string(readme))
	require.NotNil(t, sqlBlock)
	shown := flat(regexp.MustCompile(`--[^\n]*`).ReplaceAllString(sqlBlock[1], ""))
	ib, err := pginbox.New(&pgxpool.Pool{})
	require.NoError(t, err)
	require.Equal(t, flat(strings.Join(ib.MigrationSQL(), ";\n")+";"), shown)
}
