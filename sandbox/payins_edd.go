package sandbox

// The payin EDD save: POST /ren/api/v1/payin/edd/save (the EDD rules are
// edd.go).

// savePayinEDD is POST /ren/api/v1/payin/edd/save: the payout EDD's
// members plus purpose, account_operator, account_operator_name,
// relation_with_account_operator (optional strings), p2p_trading_status
// (optional bool) and supporting_purpose_doc_url (an optional list of
// URLs).
func (s *Sandbox) savePayinEDD(rq *request) reply { return s.saveEDD(rq, limitPayin) }
