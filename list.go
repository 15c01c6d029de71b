package fiatramp

import (
	"context"
	"crypto/sha256"
	"fmt"
	"iter"
	"net/http"
	"net/url"
	"slices"
	"strings"

	"github.com/fiatramp/fiatramp-go/types"
)

// Lists.
//
// Every list of the service is read through one mechanism (listing, over
// types.Page[T]), in three calls named by one rule. For a list of Rs (a
// plural noun, e.g. BankAccounts) of a service S, with the ids the list
// belongs to, and its page type types.RPage = types.Page[types.RListItem]
// (BankAccountPage = Page[BankAccountListItem]):
//
//	S.ListRs(ctx, ids..., opts...) (*types.RPage, error)           // one page: the first
//	S.Rs(ctx, ids..., opts...) iter.Seq2[types.RListItem, error]    // every item, page after page
//	S.ListRsPage(ctx, ids..., next, opts...) (*types.RPage, error) // the page a stored next link points to
//
// For the list of the service's own resource (the customers of
// Customers), whose noun the service already names, R is dropped:
//
//	S.List(ctx, filter, opts...) (*types.RPage, error)           // one page: the first
//	S.All(ctx, filter, opts...) iter.Seq2[types.RListItem, error] // every item
//	S.ListPage(ctx, next, opts...) (*types.RPage, error)         // the page of a stored next link
//
// where filter (types.CustomerListFilter) becomes the first page's query;
// ListPage takes none, since the link carries it.
//
// All three make the call of ListRs's (List's) row of the index of operations,
// whose Helpers name the other two; an Observer sees every page under
// ListRs's name. The mechanism owns what following a link takes: each
// link is followed by its path and query under the base address, never to
// the host it names, and its path must stay under the base path
// (pageURL); a link that repeats an earlier page ends the listing, and so
// does a page beyond the cap of WithMaxPages, each with an error matching
// ErrPagination.

// DefaultMaxPages is how many pages a listing that follows next links
// (e.g. BankAccounts) fetches at most: at ten items a page, far more than
// any list of the service holds.
const DefaultMaxPages = 10_000

// WithMaxPages caps how many pages a listing that follows next links
// (BankAccounts) fetches; a listing that would need more ends with an error
// matching ErrPagination, so that a server handing out an endless chain of
// pages cannot keep a call going until its context ends. The default is
// DefaultMaxPages.
func WithMaxPages(n int) Option {
	return func(c *config) error {
		if n <= 0 {
			return fmt.Errorf("fiatramp: WithMaxPages: %d is not positive", n)
		}
		c.maxPages = n
		return nil
	}
}

// listing is one list of items of type T, answered in pages
// (types.Page[T]): the call of its first page, from the index of
// operations.
type listing[T any] struct {
	client *Client
	first  operation // a GET, its path filled (opID.op)
}

// page fetches the first page.
func (l listing[T]) page(ctx context.Context, opts []RequestOption) (*types.Page[T], error) {
	return call[types.Page[T]](ctx, l.client, l.first, opts)
}

// all yields every item, following each page's next link. It stops at the
// first error, which it yields, at a page whose items are empty, or when
// next is null or "". A next link whose path leaves the base path (see
// pageURL) or that repeats an earlier one, or a page beyond the cap of
// WithMaxPages, is not followed: it yields an error matching
// ErrPagination. opts are copied: the caller may reuse its slice.
func (l listing[T]) all(ctx context.Context, opts []RequestOption) iter.Seq2[T, error] {
	opts = slices.Clone(opts)
	return func(yield func(T, error) bool) {
		var zero T
		cur, err := l.client.resolve(l.first.path)
		// Visited links by digest: a link may be nearly as long as a body,
		// and the page cap allows many, so their text is not kept.
		seen := make(map[[sha256.Size]byte]bool)
		for pages := 1; err == nil; pages++ {
			if maxPages := l.client.cfg.maxPages; pages > maxPages {
				err = fmt.Errorf("%w: more than %d pages (the cap of WithMaxPages): next link %q not followed",
					ErrPagination, maxPages, cur.String())
				break
			}
			seen[sha256.Sum256([]byte(cur.String()))] = true
			op := operation{method: http.MethodGet, url: cur}
			if pages == 1 {
				op.row = l.first.row
			}
			page := new(types.Page[T])
			if err = l.client.send(ctx, op, page, opts); err != nil {
				break
			}
			next, items := page.Next, page.Results
			for _, item := range items {
				if !yield(item, nil) {
					return
				}
			}
			if next == nil || *next == "" || len(items) == 0 {
				return
			}
			cur, err = l.client.pageURL(cur, *next)
			if err == nil && seen[sha256.Sum256([]byte(cur.String()))] {
				err = fmt.Errorf("%w: next link %q repeats an earlier page", ErrPagination, *next)
			}
		}
		yield(zero, err)
	}
}

// pageAt fetches the page next, the next link of an earlier page, points
// to. The link is checked as all checks every link it follows, and it
// must lead to this list's path (with its query, e.g. "?page=3");
// otherwise it is not sent and the error matches ErrPagination.
func (l listing[T]) pageAt(ctx context.Context, next string, opts []RequestOption) (*types.Page[T], error) {
	if strings.TrimSpace(next) == "" {
		return nil, invalid("next", "empty page link")
	}
	first, err := l.client.resolve(l.first.path)
	if err != nil {
		return nil, err
	}
	u, err := l.client.pageURL(first, next)
	if err != nil {
		return nil, err
	}
	if u.EscapedPath() != first.EscapedPath() {
		return nil, fmt.Errorf("%w: next link %q is not a page of the list %s", ErrPagination, next, l.first.path)
	}
	op := l.first
	op.path, op.url = "", u
	return call[types.Page[T]](ctx, l.client, op, opts)
}

// failedList is the listing of input refused before any request: it
// yields err, once.
func failedList[T any](err error) iter.Seq2[T, error] {
	return func(yield func(T, error) bool) {
		var zero T
		yield(zero, err)
	}
}

// pageURL resolves a pagination link against the current page and returns
// the URL to send: its path and query under the base address. A link that
// names another scheme, host, port or user (a service behind a
// TLS-terminating proxy writes http:// for https://, one behind a gateway
// its internal address) is re-rooted on the base address: the signed
// headers never travel to the host a link names. Its path must stay under
// the base path as it will be sent: checked both decoded and escaped (the
// escaped form is what goes on the wire), and a link whose path carries an
// escaped separator or percent sign (%2F, %5C, %25, in any case) or a dot
// segment (".", "..", plain or escaped, also before a ";" parameter) is
// refused outright: a gateway that routes by raw path, or normalises or
// decodes once more, would read such a path differently.
func (c *Client) pageURL(cur *url.URL, link string) (*url.URL, error) {
	ref, err := url.Parse(link)
	if err != nil {
		return nil, fmt.Errorf("%w: next link %q: %v", ErrPagination, link, err)
	}
	if escapedSeparator(ref.EscapedPath()) || hasDotSegment(ref.Path) {
		return nil, fmt.Errorf("%w: next link %q: escaped separator or dot segment in its path", ErrPagination, link)
	}
	u, base := cur.ResolveReference(ref), c.cfg.baseURL
	if u.Scheme != base.Scheme || u.Host != base.Host || u.User != nil || u.Opaque != "" {
		rooted := *base
		rooted.Path, rooted.RawPath, rooted.RawQuery, rooted.ForceQuery = u.Path, u.RawPath, u.RawQuery, false
		u = &rooted
	}
	if !strings.HasPrefix(u.Path, base.Path+"/") || !strings.HasPrefix(u.EscapedPath(), base.EscapedPath()+"/") ||
		escapedSeparator(u.EscapedPath()) || hasDotSegment(u.Path) {
		return nil, fmt.Errorf("%w: next link %q leaves the base path %s", ErrPagination, link, base)
	}
	u.Fragment = ""
	return u, nil
}

// escapedSeparator reports whether an escaped path holds an escaped "/",
// "\" or "%", in either case.
func escapedSeparator(escaped string) bool {
	for i := strings.IndexByte(escaped, '%'); i >= 0; i = strings.IndexByte(escaped, '%') {
		if code := strings.ToUpper(escaped[i+1 : min(i+3, len(escaped))]); code == "2F" || code == "5C" || code == "25" {
			return true
		}
		escaped = escaped[i+1:]
	}
	return false
}

// hasDotSegment reports whether a decoded path has a "." or ".." segment,
// also one followed by a ";" parameter ("..;"), which some servers strip.
// ResolveReference removes literal dot segments but not escaped ones
// (%2e%2e), which the request then carries and a server normalising per
// RFC 3986 resolves, out of the base path.
//
// A path decoded once more is checked too, for a gateway that decodes twice
// (%252e%252e).
func hasDotSegment(p string) bool {
	for _, seg := range strings.FieldsFunc(p, func(r rune) bool { return r == '/' || r == '\\' }) {
		seg, _, _ = strings.Cut(seg, ";")
		if seg == "." || seg == ".." {
			return true
		}
	}
	if twice, err := url.PathUnescape(p); err == nil && twice != p {
		return hasDotSegment(twice)
	}
	return false
}
