module github.com/fiatramp/fiatramp-go/pginbox

go 1.23.0

replace github.com/fiatramp/fiatramp-go => ../

require (
	github.com/fiatramp/fiatramp-go v0.1.0
	github.com/jackc/pgx/v5 v5.7.6
	github.com/shopspring/decimal v1.6.0
	github.com/stretchr/testify v1.12.1
)

require (
	github.com/google/uuid v1.6.0 // indirect
	github.com/jackc/pgpassfile v1.0.0 // indirect
	github.com/jackc/pgservicefile v0.0.0-20240606120523-5a60cdf6a761 // indirect
	github.com/jackc/puddle/v2 v2.2.2 // indirect
	go.yaml.in/yaml/v3 v3.0.5 // indirect
	golang.org/x/crypto v0.37.0 // indirect
	golang.org/x/sync v0.13.0 // indirect
	golang.org/x/text v0.24.0 // indirect
)
