package fiatramp

import (
	"strconv"
	"strings"

	"github.com/google/uuid"
)

// requireID refuses the nil uuid, which no record of the service has.
func requireID(field string, id uuid.UUID) error {
	if id == uuid.Nil {
		return invalid(field, "is required (got the nil uuid)")
	}
	return nil
}

// requireText refuses an empty or blank string.
func requireText(field, s string) error {
	if strings.TrimSpace(s) == "" {
		return invalid(field, "is required")
	}
	return nil
}

func quote(s string) string { return strconv.Quote(s) }
