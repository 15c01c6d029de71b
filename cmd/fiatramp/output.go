package main

// Output: the response data as JSON, exactly as the service sent it (so
// amounts keep every digit and never pass through a float), or a short
// table read from the same JSON.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"
	"unicode"
)

// writeJSON prints raw, one JSON value, indented. Indenting rewrites only
// white space: every number and string keeps its exact text.
func writeJSON(w io.Writer, raw json.RawMessage) error {
	var b bytes.Buffer
	if err := json.Indent(&b, raw, "", "  "); err != nil {
		return fmt.Errorf("response data is not JSON: %w", err)
	}
	b.WriteByte('\n')
	_, err := w.Write(b.Bytes())
	return err
}

// report prints a command's report: indented JSON when output is "json",
// else its text form.
func report(w io.Writer, output string, v interface{ writeText(io.Writer) }) error {
	if output != "json" {
		v.writeText(w)
		return nil
	}
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	_, err = w.Write(append(b, '\n'))
	return err
}

// writeJSONArray prints items as one indented JSON array.
func writeJSONArray(w io.Writer, items []json.RawMessage) error {
	var b bytes.Buffer
	b.WriteByte('[')
	for i, it := range items {
		if i > 0 {
			b.WriteByte(',')
		}
		b.Write(it)
	}
	b.WriteByte(']')
	return writeJSON(w, b.Bytes())
}

// object is a JSON object's members by name (the last of duplicate names
// wins, as the service's own reader does).
type object map[string]json.RawMessage

// objectOf decodes raw as a JSON object; anything else gives an empty one.
func objectOf(raw json.RawMessage) object {
	var o object
	if err := json.Unmarshal(raw, &o); err != nil {
		return object{}
	}
	return o
}

// text is member name as a table shows it: a string without its quotes, a
// number or literal as sent, an object or array as compact JSON, "-" for
// null or absent. The first of names present wins (for alternative
// spellings such as receiving_amount / receiveing_amount). A name with
// dots ("deposit_instructions.ifsc") reads a nested member.
func (o object) text(names ...string) string {
	for _, n := range names {
		if v, ok := o.member(n); ok {
			return cell(v)
		}
	}
	return "-"
}

// member is the value at the dotted path name.
func (o object) member(name string) (json.RawMessage, bool) {
	head, rest, nested := strings.Cut(name, ".")
	v, ok := o[head]
	if !ok || !nested {
		return v, ok
	}
	return objectOf(v).member(rest)
}

// cell is one JSON value as a table cell.
func cell(v json.RawMessage) string {
	v = bytes.TrimSpace(v)
	switch {
	case len(v) == 0 || string(v) == "null":
		return "-"
	case v[0] == '"':
		var s string
		if err := json.Unmarshal(v, &s); err == nil {
			if s == "" {
				return `""`
			}
			return printable(s)
		}
	case v[0] == '{' || v[0] == '[':
		var b bytes.Buffer
		if err := json.Compact(&b, v); err == nil {
			return printable(b.String())
		}
	}
	return printable(string(v))
}

// printable returns s, or s quoted when it holds characters a terminal
// would act on (control characters, escapes) or tabs that would break a
// table.
func printable(s string) string {
	for _, r := range s {
		if !unicode.IsPrint(r) {
			return strconv.Quote(s)
		}
	}
	return s
}

// table prints rows under header, aligned.
func table(w io.Writer, header []string, rows [][]string) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, strings.Join(header, "\t"))
	for _, r := range rows {
		fmt.Fprintln(tw, strings.Join(r, "\t"))
	}
	return tw.Flush()
}

// field is one row of a key/value table: the label and the JSON names it
// is read from.
type field struct {
	label string
	names []string
}

func f(label string, names ...string) field {
	if len(names) == 0 {
		names = []string{label}
	}
	return field{label, names}
}

// record prints one object as a two-column table of fields.
func record(w io.Writer, raw json.RawMessage, fields []field) error {
	o := objectOf(raw)
	rows := make([][]string, 0, len(fields))
	for _, fl := range fields {
		rows = append(rows, []string{fl.label, o.text(fl.names...)})
	}
	return table(w, []string{"FIELD", "VALUE"}, rows)
}
