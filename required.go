package fiatramp

// missingMember returns the name of the first member without which out, a
// response type of package types that has just decoded a 2xx response's
// data, cannot be used: absent, null, "" or, for an id, the nil UUID. It
// returns "" when every such member is there, and for any other out (a
// result type of the caller's own, given to Do, is never checked).
//
// The members are the ones the index of operations gives each result
// (opRow.result): those every documented response of the operation
// carries and a caller cannot do without: the id a payout, quotation,
// wallet or bank account is known by, a payout's status, the subject and
// new status of a simulation, the amounts of a balance and the list of a
// bank list page (an empty list is a valid page, a missing one is not).
// Everything else may be absent, as the decoders of package types allow.
//
// No reflection: a call pays for one type assertion per row until its
// result type's, then one comparison per member.
func missingMember(out any) string {
	for i := range operations {
		if name, ok := operations[i].result.missing(out); ok {
			return name
		}
	}
	return ""
}

// resultRule is what the result of an operation is known by: the members
// it cannot be used without.
type resultRule struct {
	members []string
	// missing returns the first of members that out lacks, and whether out
	// is a result of this rule's type at all.
	missing func(out any) (name string, ok bool)
}

// requirement is one required member of a result of type T: its name in
// the response's data and how to tell that a decoded *T lacks it.
type requirement[T any] struct {
	name   string
	absent func(*T) bool
}

// need names one required member of T.
func need[T any](name string, absent func(*T) bool) requirement[T] {
	return requirement[T]{name: name, absent: absent}
}

// requires is the rule of a result of type *T that needs every one of
// needs, checked in order.
func requires[T any](needs ...requirement[T]) resultRule {
	names := make([]string, len(needs))
	for i, n := range needs {
		names[i] = n.name
	}
	return resultRule{members: names, missing: func(out any) (string, bool) {
		v, ok := out.(*T)
		if !ok {
			return "", false
		}
		for _, n := range needs {
			if n.absent(v) {
				return n.name, true
			}
		}
		return "", true
	}}
}
