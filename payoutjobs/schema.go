package payoutjobs

import (
	"strings"

	"github.com/jackc/pgx/v5"
)

// DefaultTable is the table of payout jobs unless Config.Table names another.
const DefaultTable = "fiatramp_payout_jobs"

// statements are the pipeline's SQL with its table's name in place.
type statements struct {
	createTable, createPayoutIndex, createPhaseIndex string
	insert, selectOne, selectForUpdate               string
	selectByPayout                                   string
	counts                                           string
	setRiverJob                                      string
}

// columns are the columns a Job is read from, in scanJob's order.
const columns = `reference, kind, instruction, phase, version, quotation_id, quotation_expires_at,
       quotations, creates, sent_at, unknown_since, reconciles, payout_id, status, refusal,
       refusal_message, last_error, final_by, river_job_id, submitted_at, updated_at, final_at`

func newStatements(ident pgx.Identifier) statements {
	t := ident.Sanitize()
	last := ident[len(ident)-1]
	r := strings.NewReplacer("$T", t,
		"$PI", pgx.Identifier{last + "_payout_id_idx"}.Sanitize(),
		"$HI", pgx.Identifier{last + "_phase_idx"}.Sanitize(),
		"$C", columns)
	return statements{
		createTable: r.Replace(`CREATE TABLE IF NOT EXISTS $T (
    reference            TEXT PRIMARY KEY,            -- the payout's client_reference_id
    kind                 TEXT NOT NULL,               -- standard or prefunded
    instruction          TEXT NOT NULL,               -- the submitted instruction, canonical JSON
    phase                TEXT NOT NULL,               -- the recovery point: quote, create, sent, link, await, final, refused
    version              BIGINT NOT NULL DEFAULT 1,   -- bumped by every move, for compare-and-set
    quotation_id         UUID,
    quotation_expires_at TIMESTAMPTZ,
    quotations           INT NOT NULL DEFAULT 0,      -- quotations made
    creates              INT NOT NULL DEFAULT 0,      -- creates sent
    sent_at              TIMESTAMPTZ,                 -- first create sent since the last proof that none took effect
    unknown_since        TIMESTAMPTZ,                 -- waiting on an unknown outcome since
    reconciles           INT NOT NULL DEFAULT 0,      -- reconciliations made
    payout_id            UUID,
    status               TEXT,                        -- the payout's status as last learnt
    refusal              TEXT,                        -- the refusal's sentinel name (phase refused)
    refusal_message      TEXT,
    last_error           TEXT,
    final_by             TEXT,                        -- webhook, poll or refusal
    river_job_id         BIGINT,
    submitted_at         TIMESTAMPTZ NOT NULL DEFAULT now(),
    updated_at           TIMESTAMPTZ NOT NULL DEFAULT now(),
    final_at             TIMESTAMPTZ
)`),
		createPayoutIndex: r.Replace(`CREATE UNIQUE INDEX IF NOT EXISTS $PI ON $T (payout_id) WHERE payout_id IS NOT NULL`),
		createPhaseIndex:  r.Replace(`CREATE INDEX IF NOT EXISTS $HI ON $T (phase)`),
		insert: r.Replace(`INSERT INTO $T (reference, kind, instruction, phase)
VALUES ($1, $2, $3, 'quote')
ON CONFLICT (reference) DO NOTHING
RETURNING $C`),
		selectOne:       r.Replace(`SELECT $C FROM $T WHERE reference = $1`),
		selectForUpdate: r.Replace(`SELECT $C FROM $T WHERE reference = $1 FOR UPDATE`),
		selectByPayout: r.Replace(`SELECT $C FROM $T WHERE payout_id = $1 OR reference = $2
ORDER BY (payout_id = $1) DESC NULLS LAST LIMIT 1 FOR UPDATE`),
		counts:      r.Replace(`SELECT phase, COALESCE(status, ''), COALESCE(refusal, ''), (unknown_since IS NOT NULL), (quotations = 0), count(*) FROM $T GROUP BY 1, 2, 3, 4, 5`),
		setRiverJob: r.Replace(`UPDATE $T SET river_job_id = $2 WHERE reference = $1`),
	}
}
