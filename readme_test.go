package fiatramp_test

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// documents lists the documents the tests keep honest: README.md,
// CONTRIBUTING.md and every docs/*.md, so that a new document is walked
// without a change here.
func documents(t *testing.T) []string {
	t.Helper()
	docs, err := filepath.Glob(filepath.Join("docs", "*.md"))
	require.NoError(t, err)
	require.NotEmpty(t, docs, "docs/*.md found nothing: the walk would check too little")
	return append([]string{"README.md", "CONTRIBUTING.md"}, docs...)
}

// TestDocSnippetsAreExamples keeps every Go snippet of the documents
// compiled: each must stand, line for line, in an Example function of
// this package (example_test.go, example_control_test.go), of package
// sandbox, webhook or fiatramptest.
func TestDocSnippetsAreExamples(t *testing.T) {
	var examples []byte
	for _, f := range []string{"example_test.go", "example_control_test.go", "sandbox/example_test.go", "webhook/example_test.go", "fiatramptest/example_test.go"} {
		b, err := os.ReadFile(f)
		require.NoError(t, err)
		examples = append(examples, b...)
	}
	flat := func(s string) string { return strings.Join(strings.Fields(s), " ") }
	body := flat(string(examples))

	snippet := regexp.MustCompile("(?s)```go\n(.*?)```")
	total := 0
	for _, doc := range documents(t) {
		text, err := os.ReadFile(doc)
		require.NoError(t, err)
		for _, s := range snippet.FindAllStringSubmatch(string(text), -1) {
			total++
			assert.Contains(t, body, flat(s[1]), "%s: a Go snippet is in no Example function", doc)
		}
	}
	require.Greater(t, total, 10, "too few Go snippets found to have checked the documents")
}

// TestDocLinksResolve fails on a relative link of a document that points
// to no file, or to a heading its target does not have.
func TestDocLinksResolve(t *testing.T) {
	links := 0
	for _, doc := range documents(t) {
		text, err := os.ReadFile(doc)
		require.NoError(t, err)
		links += len(markdownLinks(string(text)))
		for _, problem := range brokenLinks(doc, string(text)) {
			t.Error(problem)
		}
	}
	require.Greater(t, links, 20, "too few links found to have checked the documents")
}

// TestDocLinkCheckFindsBrokenLinks shows that the check of
// TestDocLinksResolve can fail: a missing file, a missing heading in this
// document or another, and a link written inside code (never followed)
// are each told apart.
func TestDocLinkCheckFindsBrokenLinks(t *testing.T) {
	dir := t.TempDir()
	other := filepath.Join(dir, "other.md")
	require.NoError(t, os.WriteFile(other, []byte("# Other\n\n## Its `part`: one, two\n\n## Its `part`: one, two\n"), 0o600))
	doc := filepath.Join(dir, "doc.md")
	text := "# Doc\n\n## Here and now?\n\n" +
		"[ok](other.md) [ok](other.md#its-part-one-two) [ok](other.md#its-part-one-two-1) [ok](#here-and-now)\n" +
		"[ok](https://example.com/nothing.md) [split\nover lines](other.md#other)\n" +
		"[gone](missing.md) [no heading](other.md#nothing) [no heading here](#there)\n" +
		"`[in code](missing-too.md)`\n\n```\n[in a block](missing-three.md)\n# not a heading\n```\n" +
		"[code block heading](#not-a-heading)\n"
	assert.Equal(t, []string{
		doc + `: link "missing.md": no such file`,
		doc + `: link "other.md#nothing": other.md has no heading "nothing"`,
		doc + `: link "#there": doc.md has no heading "there"`,
		doc + `: link "#not-a-heading": doc.md has no heading "not-a-heading"`,
	}, brokenLinks(doc, text))
}

// TestReadmeLinksEveryDocument keeps every document reachable from the
// README.
func TestReadmeLinksEveryDocument(t *testing.T) {
	readme, err := os.ReadFile("README.md")
	require.NoError(t, err)
	linked := map[string]bool{}
	for _, l := range markdownLinks(string(readme)) {
		target, _, _ := strings.Cut(l, "#")
		linked[filepath.Clean(target)] = true
	}
	for _, doc := range documents(t)[1:] {
		assert.True(t, linked[doc], "README.md does not link %s", doc)
	}
}

// TestDocsOpenWithTheirReader keeps each document's first paragraph, under
// its title, saying whom the document is for, and README.md short enough
// to stay the users' document (at most 500 lines).
func TestDocsOpenWithTheirReader(t *testing.T) {
	for _, doc := range documents(t) {
		text, err := os.ReadFile(doc)
		require.NoError(t, err)
		title, rest, _ := strings.Cut(string(text), "\n\n")
		first, _, _ := strings.Cut(rest, "\n\n")
		assert.True(t, strings.HasPrefix(title, "# "), "%s opens with its title", doc)
		assert.Regexp(t, `(?i)\b(README|document) is for\b`, strings.Join(strings.Fields(first), " "),
			"%s: the first paragraph says whom the document is for", doc)
	}
	readme, err := os.ReadFile("README.md")
	require.NoError(t, err)
	assert.LessOrEqual(t, strings.Count(string(readme), "\n"), 500, "README.md is for users: at most 500 lines; move the rest to docs/")
}

// TestReadmeCommandsAreCIs keeps README's two commands the ones CI runs:
// each command of the "Two commands" block is a line of .ci/run.
func TestReadmeCommandsAreCIs(t *testing.T) {
	readme, err := os.ReadFile("README.md")
	require.NoError(t, err)
	m := regexp.MustCompile("(?s)## Two commands\n\n```\n(.*?)```").FindSubmatch(readme)
	require.NotNil(t, m, "README.md has a block under \"## Two commands\"")
	ci, err := os.ReadFile(filepath.Join(".ci", "run"))
	require.NoError(t, err)
	ciLines := map[string]bool{}
	for _, l := range strings.Split(string(ci), "\n") {
		ciLines[strings.TrimSpace(l)] = true
	}
	var commands []string
	for _, l := range strings.Split(strings.TrimSpace(string(m[1])), "\n") {
		command, _, _ := strings.Cut(l, "#")
		commands = append(commands, strings.TrimSpace(command))
	}
	require.Len(t, commands, 2)
	for _, c := range commands {
		assert.True(t, ciLines[c], ".ci/run does not run README's command %q", c)
	}
}

// fencedBlock matches a fenced code block, indented or not (a block in a
// list item), from its opening to its closing fence.
var fencedBlock = regexp.MustCompile("(?ms)^[ \t]*```.*?^[ \t]*```[^\n]*$")

// codeSpan matches an inline code span, which may run over a line break.
var codeSpan = regexp.MustCompile("`[^`]*`")

// linkTarget matches an inline link or image and captures its target.
var linkTarget = regexp.MustCompile(`\[[^\]]*\]\(([^)\s]+)\)`)

// markdownLinks returns the targets of the links of text, leaving out
// those written inside code.
func markdownLinks(text string) []string {
	text = fencedBlock.ReplaceAllString(text, "")
	text = codeSpan.ReplaceAllString(text, "")
	var targets []string
	for _, m := range linkTarget.FindAllStringSubmatch(text, -1) {
		targets = append(targets, m[1])
	}
	return targets
}

// headingAnchors returns the anchors GitHub gives the headings of text:
// the heading's text in lower case, without its markup and punctuation,
// spaces made hyphens, and "-1", "-2"... after a repeat.
func headingAnchors(text string) map[string]bool {
	text = fencedBlock.ReplaceAllString(text, "")
	heading := regexp.MustCompile(`(?m)^#{1,6}[ \t]+(.+?)[ \t#]*$`)
	linkText := regexp.MustCompile(`\[([^\]]*)\]\([^)]*\)`)
	anchors := map[string]bool{}
	seen := map[string]int{}
	for _, m := range heading.FindAllStringSubmatch(text, -1) {
		title := strings.ToLower(linkText.ReplaceAllString(m[1], "$1"))
		var b strings.Builder
		for _, r := range title {
			switch {
			case r == ' ':
				b.WriteByte('-')
			case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsMark(r):
				b.WriteRune(r)
			}
		}
		anchor := b.String()
		if n := seen[anchor]; n > 0 {
			seen[anchor]++
			anchor = fmt.Sprintf("%s-%d", anchor, n)
		} else {
			seen[anchor] = 1
		}
		anchors[anchor] = true
	}
	return anchors
}

// brokenLinks checks the relative links of the document doc, whose text
// is text: the file each names must exist, relative to doc's directory,
// and an #anchor must be a heading of that file (of doc itself when the
// link names no file). It returns one line per broken link.
func brokenLinks(doc, text string) []string {
	var problems []string
	for _, target := range markdownLinks(text) {
		if regexp.MustCompile(`^[a-zA-Z][a-zA-Z0-9+.-]*:`).MatchString(target) {
			continue // an absolute URL: not this repository's to check
		}
		file, anchor, _ := strings.Cut(target, "#")
		path := doc
		if file != "" {
			path = filepath.Join(filepath.Dir(doc), filepath.FromSlash(file))
			if _, err := os.Stat(path); err != nil {
				problems = append(problems, fmt.Sprintf("%s: link %q: no such file", doc, target))
				continue
			}
		}
		if anchor == "" {
			continue
		}
		body := text
		if file != "" {
			b, err := os.ReadFile(path)
			if err != nil {
				problems = append(problems, fmt.Sprintf("%s: link %q: %v", doc, target, err))
				continue
			}
			body = string(b)
		}
		if !headingAnchors(body)[anchor] {
			problems = append(problems, fmt.Sprintf("%s: link %q: %s has no heading %q", doc, target, filepath.Base(path), anchor))
		}
	}
	return problems
}
