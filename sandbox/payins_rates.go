package sandbox

// The payin rate: GET /pis/api/v1/payin/fetch-rate, by the rule of both
// rates (rateReply, payouts_rates.go).

// getPayinRate is GET /pis/api/v1/payin/fetch-rate: rateReply.
func (s *Sandbox) getPayinRate(rq *request) reply { return s.rateReply(rq) }
