package main

// What "fiatramp payouts save-edd" and "payins save-edd" share: their
// flags.

import (
	"flag"
	"strings"

	"github.com/google/uuid"
)

// listFlag is a flag that may be given several times, each adding a value.
type listFlag []string

func (l *listFlag) String() string { return strings.Join(*l, ",") }

func (l *listFlag) Set(v string) error {
	*l = append(*l, v)
	return nil
}

// eddFlags are the flags both EDD saves take.
type eddFlags struct {
	customer, source               string
	statements, statementPasswords listFlag
	itrs, itrPasswords             listFlag
	declare                        bool
}

func (e *eddFlags) define(fs *flag.FlagSet) {
	fs.StringVar(&e.customer, "customer", "", "customer_id (required)")
	fs.StringVar(&e.source, "source", "", "source_of_income: SALARY, BUSINESS_INCOME or OTHERS (required)")
	fs.Var(&e.statements, "bank-statement", "a bank statement's absolute http(s) `URL` (repeat for several)")
	fs.Var(&e.statementPasswords, "bank-statement-password", "the password of each -bank-statement, in order (\"\" for none; default: none)")
	fs.Var(&e.itrs, "itr", "an income tax return's absolute http(s) `URL` (repeat for several)")
	fs.Var(&e.itrPasswords, "itr-password", "the password of each -itr, in order (\"\" for none; default: none)")
	fs.BoolVar(&e.declare, "declare", false, "the customer declares the evidence true (required: nothing is sent without it)")
}

// check refuses what the command cannot send, and returns the customer.
func (e *eddFlags) check(s streams, c *command) (uuid.UUID, error) {
	if e.customer == "" || e.source == "" {
		return uuid.Nil, misuse(s, c, "-customer and -source are required")
	}
	if !e.declare {
		return uuid.Nil, misuse(s, c, "-declare is required: the customer declares the evidence true")
	}
	return parseID(s, c, "-customer", e.customer)
}

// passwords is the list given, or nil (one "" per document) when none was.
func passwords(l listFlag) []string {
	if len(l) == 0 {
		return nil
	}
	return l
}
