package sandbox

// The payout rate (GET /pos/api/v1/payout/fetch-rate), and the rule of
// both rates: the sandbox's rates (Settings.Rates) read through the
// query's asset and fiat. The payin rate is payins_rates.go.

import (
	"fmt"
	"net/http"
	"strings"
)

// getPayoutRate is GET /pos/api/v1/payout/fetch-rate: rateReply.
func (s *Sandbox) getPayoutRate(rq *request) reply { return s.rateReply(rq) }

// rateReply answers GET /pos/api/v1/payout/fetch-rate and GET
// /pis/api/v1/payin/fetch-rate with the query asset, fiat and optionally
// network: {asset, fiat, rate}, the rate of Settings.Rates (the one payin
// quotations are priced at) as a JSON number, asset and fiat in upper
// case. A missing or blank asset or fiat is a field error; a pair the
// settings do not price is refused under errors.asset, as a payin
// quotation for it is. network is echoed when given: the sandbox prices a
// pair the same on every network.
func (s *Sandbox) rateReply(rq *request) reply {
	q := rq.r.URL.Query()
	errs := map[string][]string{}
	asset, fiat := strings.TrimSpace(q.Get("asset")), strings.TrimSpace(q.Get("fiat"))
	for name, v := range map[string]string{"asset": asset, "fiat": fiat} {
		if v == "" {
			errs[name] = []string{msgRequired}
		}
	}
	if len(errs) > 0 {
		return fieldRefusal(errs)
	}
	asset, fiat = strings.ToUpper(asset), strings.ToUpper(fiat)
	rate, ok := s.settings.Rates[asset+"/"+fiat]
	if !ok || !rate.IsPositive() {
		return fieldRefusal(map[string][]string{"asset": {fmt.Sprintf("Unsupported asset/fiat pair %s/%s.", asset, fiat)}})
	}
	data := map[string]any{"asset": asset, "fiat": fiat, "rate": num(rate)}
	if n := q.Get("network"); n != "" {
		data["network"] = n
	}
	return success(http.StatusOK, "Rate fetched successfully", data)
}
