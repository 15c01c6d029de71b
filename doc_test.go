package fiatramp_test

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// docCitation matches a comment that sends the reader to a document users
// cannot open instead of stating the behaviour: the service's interface
// description (interface.md, "the interface document"), its public notes,
// or one of their sections ("§4.2", "section 7").
var docCitation = regexp.MustCompile(`(?i)interface\.md|§|\bsection [0-9]|interface document|public[- ]notes`)

// TestDocCommentsStandAlone keeps the documentation self-contained: no
// non-test Go file of the module (root, types, sandbox, webhook, internal,
// cmd, examples) cites a document its users do not have.
func TestDocCommentsStandAlone(t *testing.T) {
	var files int
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if path != "." && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".")) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		files++
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for i, line := range strings.Split(string(src), "\n") {
			if loc := docCitation.FindStringIndex(line); loc != nil {
				t.Errorf("%s:%d cites %q; state the behaviour instead: %s", path, i+1, line[loc[0]:loc[1]], strings.TrimSpace(line))
			}
		}
		return nil
	})
	require.NoError(t, err)
	require.Greater(t, files, 40, "the walk found too few Go files to have checked the module")
}
