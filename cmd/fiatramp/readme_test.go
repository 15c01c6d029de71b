package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	fiatramp "github.com/fiatramp/fiatramp-go"
	"github.com/fiatramp/fiatramp-go/types"
)

// TestReadmePythonStory runs the README's Python snippet, the recipe for
// other languages, against the command, so the documented signing recipe
// and paths keep working.
func TestReadmePythonStory(t *testing.T) {
	python, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 not installed: the README's Python recipe is not run")
	}
	readme, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	require.NoError(t, err)
	blocks := regexp.MustCompile("(?s)```python\n(.*?)```").FindAllSubmatch(readme, -1)
	require.Len(t, blocks, 1, "README has one Python snippet")

	r := start(t)
	dir := t.TempDir()
	script, cfg := filepath.Join(dir, "story.py"), filepath.Join(dir, "sandbox.json")
	require.NoError(t, os.WriteFile(script, blocks[0][1], 0o600))
	require.NoError(t, os.WriteFile(cfg, r.raw, 0o600))

	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, python, script, cfg).CombinedOutput()
	require.NoError(t, err, "python: %s", out)
	m := regexp.MustCompile(`^created ([0-9a-f-]{36}) PROCESSING\nfetched SUCCESS\n$`).FindStringSubmatch(string(out))
	require.NotNil(t, m, "python printed: %s", out)

	// The Go client sees what the script did.
	demo := r.doc.Demo
	c, err := fiatramp.New(demo.Organization.APIKey, demo.Organization.APISecret, fiatramp.WithBaseURL(r.doc.BaseURL))
	require.NoError(t, err)
	p, err := c.Payouts.Get(callCtx(t), uuid.MustParse(m[1]))
	require.NoError(t, err)
	assert.Equal(t, types.PayoutSuccess, p.Status)
	require.NotNil(t, p.ClientReferenceID)
	assert.Equal(t, "py-0001", *p.ClientReferenceID)
	assert.Equal(t, demo.Quotations[0].ID, p.QuotationID)
	require.NoError(t, r.stop(t))
}
