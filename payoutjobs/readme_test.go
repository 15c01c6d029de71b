package payoutjobs

import (
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/stretchr/testify/require"
)

// TestReadmeSnippetsAreExamples keeps README.md honest: every Go snippet
// stands, line for line, in an Example function, and the table it shows
// is the one Migrate creates.
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

	sqlBlock := regexp.MustCompile("(?s)```sql\n(.*?)```").FindStringSubmatch(string(readme))
	require.NotNil(t, sqlBlock)
	p, err := New(&pgxpool.Pool{}, Config{Client: newTestClient(t)})
	require.NoError(t, err)
	require.Equal(t, flat(strings.Join(p.MigrationSQL(), ";\n")+";"), flat(sqlBlock[1]))
}
