package sandbox

// The payout limits: GET /ren/api/v1/payout/limits/{customer_id} (the
// limits themselves are limits.go).

// getPayoutLimits is GET /ren/api/v1/payout/limits/{customer_id}.
func (s *Sandbox) getPayoutLimits(rq *request) reply {
	return s.limitsReply(rq, limitPayout)
}
