package api

import (
	"bufio"
	"crypto/sha256"
	"fmt"
	"io"
	"os"
	"regexp"
	"strings"
)

// Keys are the API keys a server accepts, each with a name: a request with
// "Authorization: Bearer KEY" is rate limited and queued as "key:"+name
// instead of by its IP. A Keys is read-only once loaded and safe for
// concurrent use.
type Keys struct {
	byHash map[[32]byte]string // sha256(key) -> name
}

// MinKeyLength is the shortest key ParseKeys accepts, in bytes.
const MinKeyLength = 16

var namePattern = regexp.MustCompile(`^[A-Za-z0-9._@-]{1,64}$`)

// LoadKeys reads a key file (see ParseKeys).
func LoadKeys(path string) (*Keys, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	k, err := ParseKeys(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return k, nil
}

// ParseKeys reads one key per line as "NAME KEY" (separated by spaces or
// tabs); blank lines and lines starting with # are skipped. Names are 1–64
// characters of [A-Za-z0-9._@-]; keys are at least MinKeyLength bytes
// without spaces. A repeated name or key is an error naming its line.
func ParseKeys(r io.Reader) (*Keys, error) {
	k := &Keys{byHash: map[[32]byte]string{}}
	names := map[string]int{}
	sc := bufio.NewScanner(r)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Fields(line)
		if len(f) != 2 {
			return nil, fmt.Errorf("line %d: want \"NAME KEY\", got %d fields", n, len(f))
		}
		name, key := f[0], f[1]
		if !namePattern.MatchString(name) {
			return nil, fmt.Errorf("line %d: name %q: use 1-64 characters of A-Z a-z 0-9 . _ @ -", n, name)
		}
		if len(key) < MinKeyLength {
			return nil, fmt.Errorf("line %d: the key of %q is %d bytes; keys need at least %d", n, name, len(key), MinKeyLength)
		}
		if prev, ok := names[name]; ok {
			return nil, fmt.Errorf("line %d: name %q is already used on line %d", n, name, prev)
		}
		h := sha256.Sum256([]byte(key))
		if other, ok := k.byHash[h]; ok {
			return nil, fmt.Errorf("line %d: the key of %q is also the key of %q", n, name, other)
		}
		names[name] = n
		k.byHash[h] = name
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	return k, nil
}

// Len returns how many keys there are.
func (k *Keys) Len() int {
	if k == nil {
		return 0
	}
	return len(k.byHash)
}

// Lookup returns the name of key, or false when it is unknown. It looks up
// the key's SHA-256, so its timing does not reveal how much of a key matched.
func (k *Keys) Lookup(key string) (string, bool) {
	if k == nil {
		return "", false
	}
	h := sha256.Sum256([]byte(key))
	name, ok := k.byHash[h]
	return name, ok
}
