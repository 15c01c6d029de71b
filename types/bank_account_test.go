package types_test

import (
	"encoding/json"
	"testing"

	"github.com/fiatramp/fiatramp-go/types"
	"github.com/stretchr/testify/require"
)

func TestBankAccountFetchOne(t *testing.T) {
	body := `{
	  "id": "1f2e3d4c-5b6a-4798-8a7b-6c5d4e3f2a1b",
	  "customer_id": "9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d",
	  "country": "IND",
	  "bank_account_type": "ACCOUNT_DETAILS",
	  "identifiers": {"account_number": "50100123456789", "ifsc": "HDFC0001234"},
	  "account_number": "50100123456789",
	  "ifsc": "HDFC0001234",
	  "bank_account_status": "VERIFIED",
	  "beneficiary_name": "ASHA RAO",
	  "bank_name": "HDFC BANK",
	  "failure_reason": null
	}`
	var b types.BankAccount
	require.NoError(t, json.Unmarshal([]byte(body), &b))
	require.Equal(t, types.BankAccount{
		ID:                idBank,
		CustomerID:        idCustomer,
		Country:           "IND",
		BankAccountType:   types.BankAccountTypeAccountDetails,
		Identifiers:       types.BankIdentifiers{AccountNumber: "50100123456789", IFSC: "HDFC0001234"},
		AccountNumber:     "50100123456789",
		IFSC:              "HDFC0001234",
		BankAccountStatus: types.BankAccountVerified,
		BeneficiaryName:   "ASHA RAO",
		BankName:          "HDFC BANK",
		FailureReason:     nil,
		Raw:               json.RawMessage(body),
	}, b)
}

// bankPageJSON is the data of fetch bank accounts (interface.md 4.9): one
// IMPS account with a null vpa, one UPI account with a null account number.
const bankPageJSON = `{
  "count": 5,
  "next": "https://sandbox.example.com/cms/api/v1/bank/list/9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d?page=3",
  "previous": "https://sandbox.example.com/cms/api/v1/bank/list/9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d?page=1",
  "results": [
    {"id": "1f2e3d4c-5b6a-4798-8a7b-6c5d4e3f2a1b", "customer_id": "9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d", "account_number": "50100123456789", "ifsc": "HDFC0001234", "account_name": "ASHA RAO", "vpa": null, "bank_account_type": "bank_account", "bank_account_status": "VERIFIED", "failure_reason": null},
    {"id": "2a3b4c5d-6e7f-4809-9a1b-2c3d4e5f6a7b", "customer_id": "9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d", "account_number": null, "ifsc": null, "account_name": "ASHA RAO", "vpa": "asha@okhdfc", "bank_account_type": "vpa", "bank_account_status": "FAILED", "failure_reason": "Name mismatch"}
  ]
}`

func TestBankAccountPage(t *testing.T) {
	var p types.BankAccountPage
	require.NoError(t, json.Unmarshal([]byte(bankPageJSON), &p))
	require.Equal(t, 5, p.Count)
	require.Equal(t, strPtr("https://sandbox.example.com/cms/api/v1/bank/list/9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d?page=3"), p.Next)
	require.Equal(t, strPtr("https://sandbox.example.com/cms/api/v1/bank/list/9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d?page=1"), p.Previous)
	require.Len(t, p.Results, 2)
	require.Equal(t, types.BankAccountListItem{
		ID:                idBank,
		CustomerID:        idCustomer,
		AccountNumber:     "50100123456789",
		IFSC:              "HDFC0001234",
		AccountName:       "ASHA RAO",
		VPA:               "",
		BankAccountType:   types.BankAccountTypeBankAccount,
		BankAccountStatus: types.BankAccountVerified,
		FailureReason:     nil,
		Raw:               json.RawMessage(`{"id": "1f2e3d4c-5b6a-4798-8a7b-6c5d4e3f2a1b", "customer_id": "9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d", "account_number": "50100123456789", "ifsc": "HDFC0001234", "account_name": "ASHA RAO", "vpa": null, "bank_account_type": "bank_account", "bank_account_status": "VERIFIED", "failure_reason": null}`),
	}, p.Results[0])
	require.Equal(t, types.BankAccountListItem{
		ID:                idReceiver,
		CustomerID:        idCustomer,
		AccountNumber:     "",
		IFSC:              "",
		AccountName:       "ASHA RAO",
		VPA:               "asha@okhdfc",
		BankAccountType:   types.BankAccountTypeVPA,
		BankAccountStatus: types.BankAccountFailed,
		FailureReason:     strPtr("Name mismatch"),
		Raw:               json.RawMessage(`{"id": "2a3b4c5d-6e7f-4809-9a1b-2c3d4e5f6a7b", "customer_id": "9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d", "account_number": null, "ifsc": null, "account_name": "ASHA RAO", "vpa": "asha@okhdfc", "bank_account_type": "vpa", "bank_account_status": "FAILED", "failure_reason": "Name mismatch"}`),
	}, p.Results[1])
	require.Equal(t, bankPageJSON, string(p.Raw))
}

func TestBankAccountPageLastPage(t *testing.T) {
	var p types.BankAccountPage
	require.NoError(t, json.Unmarshal([]byte(`{"count":0,"next":null,"previous":null,"results":[]}`), &p))
	require.Equal(t, 0, p.Count)
	require.Nil(t, p.Next)
	require.Nil(t, p.Previous)
	require.NotNil(t, p.Results)
	require.Empty(t, p.Results)
}

func FuzzBankAccount(f *testing.F) {
	fuzzDecode(f, decodeSpec[types.BankAccount]{prior: fuzzBankAccountJSON, hasRaw: true})
}

func FuzzBankAccountListItem(f *testing.F) {
	fuzzDecode(f, decodeSpec[types.BankAccountListItem]{prior: fuzzBankItemJSON, hasRaw: true})
}

func FuzzBankIdentifiers(f *testing.F) {
	fuzzDecode(f, decodeSpec[types.BankIdentifiers]{prior: `{"account_number":"50100123456789","ifsc":"HDFC0001234"}`})
}

// TestBankAccountEveryShape: a fetched account is read whichever shape
// the answering edition sent: the detailed one, the list item's
// (account_name, vpa), and the older one spelling the IFSC ifsc_code.
func TestBankAccountEveryShape(t *testing.T) {
	const ids = `"id":"1f2e3d4c-5b6a-4798-8a7b-6c5d4e3f2a1b","customer_id":"9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d",`
	cases := []struct {
		name, body             string
		ifsc, holder, vpa, num string
	}{
		{"detailed", `{` + ids + `"identifiers":{"account_number":"501","ifsc":"HDFC0001234"},"account_number":"501","ifsc":"HDFC0001234","beneficiary_name":"ASHA RAO","bank_account_status":"VERIFIED"}`,
			"HDFC0001234", "ASHA RAO", "", "501"},
		{"list item", `{` + ids + `"account_number":"501","ifsc":"HDFC0001234","account_name":"ASHA RAO","vpa":null,"bank_account_type":"bank_account","bank_account_status":"PROCESSING","failure_reason":null}`,
			"HDFC0001234", "ASHA RAO", "", "501"},
		{"list item vpa", `{` + ids + `"account_number":null,"ifsc":null,"account_name":"ASHA RAO","vpa":"asha@okhdfc","bank_account_type":"vpa","bank_account_status":"VERIFIED"}`,
			"", "ASHA RAO", "asha@okhdfc", ""},
		{"older ifsc_code", `{` + ids + `"account_number":"501","ifsc_code":"SBIN0000001","account_name":"ASHA RAO","bank_account_status":"VERIFIED"}`,
			"SBIN0000001", "ASHA RAO", "", "501"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var b types.BankAccount
			require.NoError(t, json.Unmarshal([]byte(c.body), &b))
			require.Equal(t, idBank, b.ID)
			require.Equal(t, c.ifsc, b.IFSC)
			require.Equal(t, c.holder, b.HolderName())
			require.Equal(t, c.vpa, b.VPA)
			require.Equal(t, c.num, b.AccountNumber)
		})
	}
}

// TestBankAccountIFSCBothSpellings: with both ifsc and ifsc_code, ifsc
// wins unless it is null or "", in either order of the members.
func TestBankAccountIFSCBothSpellings(t *testing.T) {
	cases := map[string]string{
		`{"ifsc":"HDFC0001234","ifsc_code":"SBIN0000001"}`: "HDFC0001234",
		`{"ifsc_code":"SBIN0000001","ifsc":"HDFC0001234"}`: "HDFC0001234",
		`{"ifsc":null,"ifsc_code":"SBIN0000001"}`:          "SBIN0000001",
		`{"ifsc_code":"SBIN0000001","ifsc":""}`:            "SBIN0000001",
		`{"ifsc_code":null}`:                               "",
		`{"ifsc":"A","ifsc_code":"B","ifsc":"C"}`:          "C",
	}
	for body, want := range cases {
		var b types.BankAccount
		require.NoError(t, json.Unmarshal([]byte(body), &b), body)
		require.Equal(t, want, b.IFSC, body)
	}
}

// TestBankAccountHolderName: account_name wins over beneficiary_name.
func TestBankAccountHolderName(t *testing.T) {
	var b types.BankAccount
	require.NoError(t, json.Unmarshal([]byte(`{"beneficiary_name":"B","account_name":"A"}`), &b))
	require.Equal(t, "A", b.HolderName())
	b = types.BankAccount{}
	require.NoError(t, json.Unmarshal([]byte(`{"beneficiary_name":"B","account_name":null}`), &b))
	require.Equal(t, "B", b.HolderName())
}

// TestBankAccountListItemIFSCCode: a list item of an edition that spells
// the IFSC ifsc_code keeps it; ifsc wins when both are set.
func TestBankAccountListItemIFSCCode(t *testing.T) {
	var b types.BankAccountListItem
	require.NoError(t, json.Unmarshal([]byte(`{"id":"1c7d0c2f-4a5b-4d66-8b8f-3e2a7f9b0c12","ifsc_code":"HDFC0001234"}`), &b))
	require.Equal(t, "HDFC0001234", b.IFSC)
	require.NoError(t, json.Unmarshal([]byte(`{"ifsc":"SBIN0000001","ifsc_code":"HDFC0001234"}`), &b))
	require.Equal(t, "SBIN0000001", b.IFSC)
}
