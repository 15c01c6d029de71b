package sandbox

// The payout configuration (GET /pos/api/v1/payout/configuration), and
// what both configurations answer: what the sandbox supports, from its
// settings (Rates and CoinLimits), keyed by fiat as the service's newest
// edition answers. The payin configuration is payins_configuration.go.

import (
	"net/http"
	"sort"
	"strings"
)

// getPayoutConfiguration is GET /pos/api/v1/payout/configuration:
// configurationReply.
func (s *Sandbox) getPayoutConfiguration(*request) reply { return s.static.configuration }

// configurationReply, encoded once by New from the settings, answers GET /pos/api/v1/payout/configuration and GET
// /pis/api/v1/payin/configuration: keyed by fiat in lower case, each
// fiat's supported_assets (the assets Settings.Rates prices in it, in
// lower case, sorted) and coin_limits (Settings.CoinLimits of those
// assets, per payment method in lower case, amounts as JSON numbers).
func (s *Sandbox) configurationReply() reply {
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
		if byMethod, ok := s.settings.CoinLimits[strings.ToUpper(pair)]; ok {
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
