package sandbox

// The payin configuration: GET /pis/api/v1/payin/configuration, as both
// configurations answer (configurationReply, payouts_configuration.go).

// getPayinConfiguration is GET /pis/api/v1/payin/configuration:
// configurationReply.
func (s *Sandbox) getPayinConfiguration(*request) reply { return s.static.configuration }
