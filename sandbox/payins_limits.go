package sandbox

// The payin limits: GET /ren/api/v1/payin/limits/{customer_id} (the
// limits themselves are limits.go).

// getPayinLimits is GET /ren/api/v1/payin/limits/{customer_id}.
func (s *Sandbox) getPayinLimits(rq *request) reply {
	return s.limitsReply(rq, limitPayin)
}
