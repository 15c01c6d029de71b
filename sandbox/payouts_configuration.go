package sandbox

// The payout configuration (GET /pos/api/v1/payout/configuration), and
// what both configurations answer: what the sandbox supports, from its
// settings (Rates and CoinLimits), keyed by fiat as the service's newest
// edition answers. The payin configuration, which shows the bounds the
// payin quotation applies instead, is payins_configuration.go.

import (
	"net/http"
	"sort"
	"strings"

	"github.com/shopspring/decimal"

	"github.com/fiatramp/fiatramp-go/types"
)

// getPayoutConfiguration is GET /pos/api/v1/payout/configuration:
// configurationReply.
func (s *Sandbox) getPayoutConfiguration(*request) reply { return s.static.configuration }

// configurationReply, encoded once by New from the settings, answers GET
// /pos/api/v1/payout/configuration: keyed by fiat in lower case, each
// fiat's supported_assets (the assets Settings.Rates prices in it, in
// lower case, sorted) and coin_limits (Settings.CoinLimits of those
// assets, per payment method in lower case, amounts as JSON numbers).
func (s *Sandbox) configurationReply() reply {
	return s.configurationOf(func(pair string, _ decimal.Decimal) map[types.PaymentMethod]CoinLimit {
		return s.settings.CoinLimits[strings.ToUpper(pair)]
	})
}

// configurationOf is a configuration answer whose coin_limits of each
// priced pair (ASSET/FIAT as Settings.Rates keys it, and its rate) are
// limits' answer; no limits leaves the pair out of coin_limits.
func (s *Sandbox) configurationOf(limitsOf func(pair string, rate decimal.Decimal) map[types.PaymentMethod]CoinLimit) reply {
	type fiatJSON struct {
		SupportedAssets []string                             `json:"supported_assets"`
		CoinLimits      map[string]map[string]map[string]any `json:"coin_limits"`
	}
	out := map[string]*fiatJSON{}
	for pair, rate := range s.settings.Rates {
		asset, fiat, ok := strings.Cut(pair, "/")
		if !ok || !rate.IsPositive() {
			continue
		}
		asset, fiat = strings.ToLower(asset), strings.ToLower(fiat)
		f := out[fiat]
		if f == nil {
			f = &fiatJSON{SupportedAssets: []string{}, CoinLimits: map[string]map[string]map[string]any{}}
			out[fiat] = f
		}
		f.SupportedAssets = append(f.SupportedAssets, asset)
		if byMethod := limitsOf(pair, rate); len(byMethod) > 0 {
			limits := map[string]map[string]any{}
			for m, l := range byMethod {
				limits[strings.ToLower(string(m))] = map[string]any{"min": num(l.Min), "max": num(l.Max)}
			}
			f.CoinLimits[asset] = limits
		}
	}
	for _, f := range out {
		sort.Strings(f.SupportedAssets)
	}
	return success(http.StatusOK, "Configuration fetched successfully", out)
}
