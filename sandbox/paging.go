package sandbox

// The paging of every list the sandbox serves (bank accounts, customers,
// payout and payin histories), as the REST framework's page-number
// paginator answers it: count, next, previous and results.

import (
	"maps"
	"net/http"
	"net/url"
	"strconv"
	"strings"
)

// listPage is one page of a list.
type listPage[T any] struct {
	Count    int     `json:"count"`
	Next     *string `json:"next"`
	Previous *string `json:"previous"`
	Results  []T     `json:"results"`
}

// maxPageSize is the most items a page_size query parameter asks for, as
// an older edition of the service documents it.
const maxPageSize = 100

// pageSize reads the page_size query parameter, as the REST framework's
// paginator does with page_size_query_param set: a whole number from 1
// (at most maxPageSize, larger ones clamped to it) sizes the page; absent
// or anything else, the page has the default size.
func pageSize(q url.Values, def int) int {
	n, err := strconv.Atoi(q.Get("page_size"))
	if err != nil || n < 1 {
		return def
	}
	return min(n, maxPageSize)
}

// lastPage is the page number pageParam reads "last" as: the list's
// last page, which the REST framework's paginator serves for page=last.
const lastPage = -1

// pageParam reads the page query parameter: 1 when absent, lastPage for
// "last"; ok is false when it is not a whole number of at least 1 (or
// "last"), which invalidPage answers.
func pageParam(q url.Values) (page int, ok bool) {
	if !q.Has("page") {
		return 1, true
	}
	if q.Get("page") == "last" {
		return lastPage, true
	}
	n, err := strconv.Atoi(q.Get("page"))
	if err != nil || n < 1 {
		return 0, false
	}
	return n, true
}

// invalidPage is the paginator's answer to a page that is not a number of
// at least 1 or lies beyond the last one.
func invalidPage() reply {
	return refusal(http.StatusNotFound, "", msgInvalidPage, nil)
}

// listReply is every list's answer: page n (from 1; lastPage for the
// last, page 1 when there are no items) of items, Settings.PageSize to a
// page, each item shown by show, with message; or "Invalid page." (404)
// when page n lies beyond the last one (page 1 always exists, empty or
// not). Its next and previous links are s.pageBase(r) with the query
// carry (the filters the list was asked with) and the page number.
func listReply[E, T any](s *Sandbox, r *http.Request, carry url.Values, n int, items []E, show func(E) T, message string) reply {
	data, ok := pageOf(s, r, carry, n, items, show)
	if !ok {
		return invalidPage()
	}
	return success(http.StatusOK, message, data)
}

// pageOf is listReply's page, and false for a page beyond the last.
func pageOf[E, T any](s *Sandbox, r *http.Request, carry url.Values, n int, items []E, show func(E) T) (listPage[T], bool) {
	size := pageSize(r.URL.Query(), s.settings.PageSize)
	if n == lastPage {
		n = max(1, (len(items)+size-1)/size)
	}
	if n > 1 && n-1 >= (len(items)+size-1)/size {
		return listPage[T]{}, false
	}
	from := (n - 1) * size
	to := min(from+size, len(items))
	data := listPage[T]{Count: len(items), Results: make([]T, 0, to-from)}
	for _, it := range items[from:to] {
		data.Results = append(data.Results, show(it))
	}
	base := s.pageBase(r)
	link := func(page int) *string {
		q := maps.Clone(carry)
		if q == nil {
			q = url.Values{}
		}
		q.Set("page", strconv.Itoa(page))
		u := base + "?" + q.Encode()
		return &u
	}
	if to < len(items) {
		data.Next = link(n + 1)
	}
	if n > 1 {
		data.Previous = link(n - 1)
	}
	return data, true
}

// pageBase is the absolute URL, without query, that the bank list's page
// links start with: Settings.PublicURL followed by the route's path when
// set, or else the scheme, Host and path the request arrived with (the
// path of RequestURI, so that a sandbox mounted under a prefix, e.g. with
// http.StripPrefix, still gives links that reach it).
func (s *Sandbox) pageBase(r *http.Request) string {
	if u := s.publicURL(); u != nil {
		return strings.TrimRight(u.String(), "/") + r.URL.EscapedPath()
	}
	scheme := "http"
	if r.TLS != nil {
		scheme = "https"
	}
	path := r.URL.EscapedPath()
	if r.RequestURI != "" {
		if u, err := url.ParseRequestURI(r.RequestURI); err == nil {
			path = u.EscapedPath()
		}
	}
	return scheme + "://" + r.Host + path
}
