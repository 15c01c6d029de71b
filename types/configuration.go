package types

import (
	"encoding/json"
	"reflect"
	"strings"

	"github.com/shopspring/decimal"
)

// Configuration is what the service supports for payouts or payins: the
// data of GET /pos/api/v1/payout/configuration and GET
// /pis/api/v1/payin/configuration. Two editions of the answer decode into
// it:
//
//   - keyed by fiat (the newest): {"inr": {"supported_assets": [...],
//     "coin_limits": {"usdt": {"imps": {"min", "max"}, "upi": {...}}}}},
//     read into Fiats;
//   - flat (older): {"supported_fiats", "supported_assets", "coin_limits":
//     {"usdt": {"min", "max"}}, "supported_networks",
//     "required_risk_parameters"}, read into the other fields;
//   - flat with coin_limits nested per fiat, asset and method:
//     {"supported_fiats", "supported_assets", "coin_limits": {"inr":
//     {"usdt": {"imps": {"min", "max"}}}}}: each fiat's limits are read
//     into its entry of Fiats, beside the flat supported_assets and
//     supported_networks, and CoinLimits is nil.
//
// coin_limits is nested per fiat when a limit sits three objects deep
// under it (fiat, asset, method), or when its keys are all among
// supported_fiats and none among supported_assets.
//
// Fiat reads either as the configuration of one fiat. Amounts are decimals,
// in units of the asset, exactly as sent (a JSON number or a decimal
// string). When a member repeats, its last occurrence decides.
type Configuration struct {
	// Fiats holds, in the newest edition, the configuration of each fiat
	// by its code as the service spells it ("inr"): every member of the
	// data whose value is an object, but the flat edition's coin_limits;
	// and the fiats of a flat coin_limits nested per fiat. Nil when there
	// is none.
	Fiats map[string]FiatConfiguration `json:"-" fiatramp:"rest"`
	// SupportedFiats lists the fiat codes of the flat edition.
	SupportedFiats []string `json:"supported_fiats"`
	// SupportedAssets lists the asset codes of the flat edition.
	SupportedAssets []string `json:"supported_assets"`
	// CoinLimits holds the flat edition's limits per asset code.
	CoinLimits map[string]AssetLimits `json:"coin_limits"`
	// SupportedNetworks is the flat edition's supported_networks, as sent:
	// its shape is not documented.
	SupportedNetworks json.RawMessage `json:"supported_networks"`
	// RequiredRiskParameters is the flat edition's
	// required_risk_parameters, as sent: its shape is not documented.
	RequiredRiskParameters json.RawMessage `json:"required_risk_parameters"`
	// Raw is a copy of the exact JSON object this was decoded from.
	Raw json.RawMessage `json:"-" fiatramp:"raw"`
}

// FiatConfiguration is what the service supports in one fiat.
type FiatConfiguration struct {
	// SupportedAssets lists the asset codes, as sent.
	SupportedAssets []string `json:"supported_assets"`
	// CoinLimits holds the limits per asset code, as sent ("usdt").
	CoinLimits map[string]AssetLimits `json:"coin_limits"`
	// SupportedNetworks is supported_networks, as sent (an on-chain
	// deployment names networks); its shape is not documented.
	SupportedNetworks json.RawMessage `json:"supported_networks"`
}

// AssetLimits are the least and the most one transaction of an asset may
// carry, in units of the asset: per payment method in the newest edition
// (ByMethod), for every method in the flat one (Min and Max).
type AssetLimits struct {
	// Min and Max are the flat edition's limits; zero when absent.
	Min decimal.Decimal `json:"min"`
	Max decimal.Decimal `json:"max"`
	// ByMethod holds the limits per payment method by its name as sent
	// ("imps", "upi"): every member whose value is an object. Nil when
	// there is none.
	ByMethod map[string]AmountRange `json:"-" fiatramp:"rest"`
}

// AmountRange is a least and a most amount.
type AmountRange struct {
	Min decimal.Decimal `json:"min"`
	Max decimal.Decimal `json:"max"`
}

var (
	configurationPlan     = compilePlan[Configuration]()
	fiatConfigurationPlan = compilePlan[FiatConfiguration]()
	assetLimitsPlan       = compilePlan[AssetLimits]()
	amountRangePlan       = compilePlan[AmountRange]()
)

// UnmarshalJSON decodes a configuration of any edition and keeps a copy
// of data in Raw. null leaves c unchanged; on error c is unchanged.
func (c *Configuration) UnmarshalJSON(data []byte) error {
	if null, err := nullOrObject(data, reflect.TypeFor[Configuration]()); err != nil || null {
		return err
	}
	var read Configuration
	if err := decodeWith(configurationPlan, &read, data); err != nil {
		return err
	}
	if read.CoinLimits != nil {
		var nested coinLimitsByFiat
		if err := decodeWith(coinLimitsByFiatPlan, &nested, data); err != nil {
			return err
		}
		if nested.perFiat(&read) {
			for fiat, limits := range nested.CoinLimits {
				if _, newest := read.Fiats[fiat]; newest {
					continue
				}
				if read.Fiats == nil {
					read.Fiats = make(map[string]FiatConfiguration, len(nested.CoinLimits))
				}
				read.Fiats[fiat] = FiatConfiguration{SupportedAssets: read.SupportedAssets, CoinLimits: limits.Assets, SupportedNetworks: read.SupportedNetworks}
			}
			read.CoinLimits = nil
		}
	}
	*c = read
	return nil
}

// coinLimitsByFiat reads a flat configuration's coin_limits as nested per
// fiat: {"inr": {"usdt": {"imps": {"min", "max"}}}}.
type coinLimitsByFiat struct {
	CoinLimits map[string]fiatCoinLimits `json:"coin_limits"`
}

// fiatCoinLimits is the limits of one fiat, by asset code.
type fiatCoinLimits struct {
	Assets map[string]AssetLimits `json:"-" fiatramp:"rest"`
}

var coinLimitsByFiatPlan = compilePlan[coinLimitsByFiat]()

// perFiat reports whether the coin_limits read both ways is nested per
// fiat: a limit sits three objects deep (an asset of a fiat has limits
// per method), or every key is a supported fiat and none a supported
// asset.
func (n *coinLimitsByFiat) perFiat(c *Configuration) bool {
	for _, f := range n.CoinLimits {
		for _, a := range f.Assets {
			if len(a.ByMethod) > 0 {
				return true
			}
		}
	}
	if len(c.SupportedFiats) == 0 || len(n.CoinLimits) == 0 {
		return false
	}
	for key := range n.CoinLimits {
		if !containsFold(c.SupportedFiats, key) || containsFold(c.SupportedAssets, key) {
			return false
		}
	}
	return true
}

// containsFold reports whether list holds s, compared without case.
func containsFold(list []string, s string) bool {
	for _, e := range list {
		if strings.EqualFold(e, s) {
			return true
		}
	}
	return false
}

func (*Configuration) plan() *plan { return configurationPlan }

// UnmarshalJSON decodes the configuration of one fiat. null leaves f
// unchanged; on error f is unchanged.
func (f *FiatConfiguration) UnmarshalJSON(data []byte) error {
	return decode(f, data)
}

func (*FiatConfiguration) plan() *plan { return fiatConfigurationPlan }

// UnmarshalJSON decodes the limits of one asset. null leaves l unchanged;
// on error l is unchanged.
func (l *AssetLimits) UnmarshalJSON(data []byte) error {
	return decode(l, data)
}

func (*AssetLimits) plan() *plan { return assetLimitsPlan }

// UnmarshalJSON decodes a range. null leaves r unchanged; on error r is
// unchanged.
func (r *AmountRange) UnmarshalJSON(data []byte) error {
	return decode(r, data)
}

func (*AmountRange) plan() *plan { return amountRangePlan }

// Fiat returns the configuration of fiat (its code as sent, in lower or in
// upper case): the entry
// of Fiats, else, for a flat answer, the flat fields when SupportedFiats
// names fiat or names none. ok is false when the answer says nothing of
// fiat.
func (c *Configuration) Fiat(fiat string) (cfg FiatConfiguration, ok bool) {
	if f, found := lookupCode(c.Fiats, fiat); found {
		return f, true
	}
	if c.SupportedAssets == nil && c.CoinLimits == nil {
		return FiatConfiguration{}, false
	}
	named := len(c.SupportedFiats) == 0
	for _, code := range c.SupportedFiats {
		named = named || strings.EqualFold(code, fiat)
	}
	if !named {
		return FiatConfiguration{}, false
	}
	return FiatConfiguration{SupportedAssets: c.SupportedAssets, CoinLimits: c.CoinLimits, SupportedNetworks: c.SupportedNetworks}, true
}

// Limits returns the range of one transaction of asset by method (codes
// and method as sent, in lower or in upper case): the method's own range when the configuration
// gives one per method, else the asset's flat Min and Max. ok is false
// when the configuration gives no limits for asset (or, having ranges per
// method, none for method).
func (f FiatConfiguration) Limits(asset, method string) (r AmountRange, ok bool) {
	l, found := lookupCode(f.CoinLimits, asset)
	if !found {
		return AmountRange{}, false
	}
	if len(l.ByMethod) > 0 {
		return lookupCode(l.ByMethod, method)
	}
	return AmountRange{Min: l.Min, Max: l.Max}, true
}

// lookupCode finds code in m as given, in lower case or in upper case,
// in that order: the same answer every time, whatever other spellings m
// holds.
func lookupCode[V any](m map[string]V, code string) (V, bool) {
	for _, k := range [...]string{code, strings.ToLower(code), strings.ToUpper(code)} {
		if v, ok := m[k]; ok {
			return v, true
		}
	}
	var zero V
	return zero, false
}
