package sandbox

// Payout and payin configuration: what the sandbox supports, from its
// settings (Rates and CoinLimits), keyed by fiat as the service's newest
// edition answers.

import (
	"net/http"
	"sort"
	"strings"

	"github.com/shopspring/decimal"

	"github.com/fiatramp/fiatramp-go/types"
)

// CoinLimit is the least and the most one transaction may carry, in units
// of the asset.
type CoinLimit struct {
	Min decimal.Decimal `json:"min"`
	Max decimal.Decimal `json:"max"`
}

// defaultCoinLimits are the default Settings.CoinLimits.
func defaultCoinLimits() map[string]map[types.PaymentMethod]CoinLimit {
	byMethod := func() map[types.PaymentMethod]CoinLimit {
		return map[types.PaymentMethod]CoinLimit{
			types.PaymentMethodIMPS: {Min: decimal.NewFromInt(10), Max: decimal.NewFromInt(5000)},
			types.PaymentMethodUPI:  {Min: decimal.NewFromInt(10), Max: decimal.NewFromInt(1000)},
		}
	}
	return map[string]map[types.PaymentMethod]CoinLimit{"USDT/INR": byMethod(), "USDC/INR": byMethod()}
}

// settleLimitSettings copies the maps of the configuration and limit
// settings, so that the caller's cannot change a running sandbox, and
// puts the defaults in place of unusable values.
func settleLimitSettings(st *Settings) {
	def := DefaultSettings()
	if st.CoinLimits == nil {
		st.CoinLimits = def.CoinLimits
	}
	if !st.PayoutLimits.Daily.IsPositive() {
		st.PayoutLimits = def.PayoutLimits
	}
	if !st.PayinLimits.Daily.IsPositive() {
		st.PayinLimits = def.PayinLimits
	}
	if st.EDDLimitMultiplier < 1 {
		st.EDDLimitMultiplier = def.EDDLimitMultiplier
	}
	copyLimitSettings(st)
}

// copyLimitSettings replaces the maps of st's configuration and limit
// settings by copies.
func copyLimitSettings(st *Settings) {
	coins := make(map[string]map[types.PaymentMethod]CoinLimit, len(st.CoinLimits))
	for pair, byMethod := range st.CoinLimits {
		m := make(map[types.PaymentMethod]CoinLimit, len(byMethod))
		for k, v := range byMethod {
			m[k] = v
		}
		coins[pair] = m
	}
	st.CoinLimits = coins
	st.PayoutLimits = st.PayoutLimits.clone()
	st.PayinLimits = st.PayinLimits.clone()
}

// getConfiguration is GET /pos/api/v1/payout/configuration and GET
// /pis/api/v1/payin/configuration: keyed by fiat in lower case, each
// fiat's supported_assets (the assets Settings.Rates prices in it, in
// lower case, sorted) and coin_limits (Settings.CoinLimits of those
// assets, per payment method in lower case, amounts as JSON numbers).
func (s *Sandbox) getConfiguration(*request) reply {
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
