package fiatramp_test

import (
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestDocsSayEachThingOnce: no table of a document has two rows for the
// same thing (the same first cell, or the same method in a Method
// column), and no document has two sentences that open alike (eight
// words). Two statements of one thing drift apart, and then one of them
// is false.
func TestDocsSayEachThingOnce(t *testing.T) {
	for _, doc := range documents(t) {
		text, err := os.ReadFile(doc)
		require.NoError(t, err)
		assert.Empty(t, repeatedRows(doc, string(text)), "rows saying the same thing twice")
		assert.Empty(t, repeatedSentences(doc, string(text)), "sentences saying the same thing twice")
	}
}

// TestRepeatedRowsFound: the checks find a repeated first cell (case and
// spacing aside, formatting kept), a repeated method, and a repeated
// sentence opening, also within one paragraph, and ignore code blocks
// and separate tables.
func TestRepeatedRowsFound(t *testing.T) {
	text := "# Doc\n\n| Operation | Method |\n|---|---|\n| Get  payout | `Payouts.Get` |\n| get payout | `Payouts.Other` |\n" +
		"| List | `Payouts.Get` |\n| List (every page) | — |\n| List (a page) | — |\n\n" +
		"| Operation | Method |\n|---|---|\n| List | `Payouts.List` |\n\n" +
		"```\n| a | b |\n|---|---|\n| x | 1 |\n| x | 2 |\n```\n\n" +
		"Where the documentation shows no body, the bodies are\nthe library's choice.\n" +
		"Where the documentation shows no body, the bodies are the\nlibrary's own choice, said again.\n\n" +
		"Where the documentation shows a body: no repeat\n"
	assert.Equal(t, []string{
		"doc.md:6: a second row for \"get payout\" (first at line 5)",
		"doc.md:7: a second row for method `Payouts.Get` (first at line 5)",
	}, repeatedRows("doc.md", text))
	assert.Equal(t, []string{
		"doc.md:24: a second sentence opening \"where the documentation shows no body, the bodies\" (first at line 22)",
	}, repeatedSentences("doc.md", text))
}

var tableRule = regexp.MustCompile(`^\|[\s:|-]+\|\s*$`)

// repeatedRows names each row of a table of text that repeats an earlier
// row's first cell, or its cell in a column headed Method.
func repeatedRows(doc, text string) []string {
	var found []string
	lines := strings.Split(text, "\n")
	fenced := false
	for i := 0; i < len(lines); i++ {
		if strings.HasPrefix(lines[i], "```") {
			fenced = !fenced
		}
		if fenced || !strings.HasPrefix(lines[i], "|") || i+1 >= len(lines) || !tableRule.MatchString(lines[i+1]) {
			continue
		}
		method := -1
		for c, h := range tableCells(lines[i]) {
			if strings.EqualFold(h, "method") {
				method = c
			}
		}
		firsts, methods := map[string]int{}, map[string]int{}
		i += 2
		for ; i < len(lines) && strings.HasPrefix(lines[i], "|"); i++ {
			cells := tableCells(lines[i])
			key := strings.ToLower(strings.Join(strings.Fields(cells[0]), " "))
			if at, seen := firsts[key]; seen && key != "" {
				found = append(found, doc+":"+strconv.Itoa(i+1)+": a second row for "+strconv.Quote(key)+" (first at line "+strconv.Itoa(at)+")")
			} else {
				firsts[key] = i + 1
			}
			if method < 0 || method >= len(cells) || !strings.Contains(cells[method], "`") {
				continue
			}
			if at, seen := methods[cells[method]]; seen {
				found = append(found, doc+":"+strconv.Itoa(i+1)+": a second row for method "+cells[method]+" (first at line "+strconv.Itoa(at)+")")
			} else {
				methods[cells[method]] = i + 1
			}
		}
	}
	return found
}

// tableCells splits a table row into its trimmed cells.
func tableCells(row string) []string {
	cells := strings.Split(strings.Trim(strings.TrimSpace(row), "|"), "|")
	for i := range cells {
		cells[i] = strings.TrimSpace(cells[i])
	}
	return cells
}

// repeatedSentences names each sentence of the prose of text (outside
// code, headings and tables) whose first eight words, case aside, open an
// earlier sentence too: a paragraph or a statement said twice.
func repeatedSentences(doc, text string) []string {
	var found []string
	openings := map[string]int{}
	var words []string
	start := 0
	end := func() {
		if len(words) >= 8 {
			key := strings.ToLower(strings.Join(words[:8], " "))
			if at, seen := openings[key]; seen {
				found = append(found, doc+":"+strconv.Itoa(start)+": a second sentence opening "+strconv.Quote(key)+" (first at line "+strconv.Itoa(at)+")")
			} else {
				openings[key] = start
			}
		}
		words = nil
	}
	fenced := false
	for i, l := range strings.Split(text, "\n") {
		trimmed := strings.TrimSpace(l)
		if strings.HasPrefix(l, "```") {
			fenced = !fenced
		}
		if fenced || strings.HasPrefix(l, "```") || trimmed == "" || strings.HasPrefix(trimmed, "#") || strings.HasPrefix(trimmed, "|") {
			end()
			continue
		}
		for _, w := range strings.Fields(trimmed) {
			if len(words) == 0 {
				start = i + 1
			}
			words = append(words, w)
			if strings.ContainsAny(w[len(w)-1:], ".!?:") {
				end()
			}
		}
	}
	end()
	return found
}
