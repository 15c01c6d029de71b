package fiatramp

import (
	"context"
	"time"
)

// WithSleep replaces the wait between attempts, so that a test can record
// the delays instead of sleeping them.
func WithSleep(sleep func(ctx context.Context, d time.Duration) error) Option {
	return func(c *config) error {
		c.sleep = sleep
		return nil
	}
}

// WithJitter replaces the random jitter source: jitter(n) must return a
// value in [0, n).
func WithJitter(jitter func(n int64) int64) Option {
	return func(c *config) error {
		c.jitter = jitter
		return nil
	}
}

// OperationCreates returns what the operation named name ("Payouts.Create")
// creates, by its row of the index, and whether the index has the row.
func OperationCreates(name string) (string, bool) {
	for i := range operations {
		if operations[i].name == name {
			return operations[i].creates, true
		}
	}
	return "", false
}
