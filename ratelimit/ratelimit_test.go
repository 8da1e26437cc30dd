package ratelimit_test

import (
	"fmt"
	"testing"
	"testing/synctest"
	"time"

	"github.com/playground-dev/playground/ratelimit"
)

func TestBurstThenRefill(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		l := ratelimit.New(ratelimit.Config{PerSecond: 4, Burst: 8})
		for i := range 8 {
			if ok, _ := l.Allow("1.2.3.4"); !ok {
				t.Fatalf("Allow #%d = false; want true within the burst", i+1)
			}
		}
		ok, retry := l.Allow("1.2.3.4")
		if ok {
			t.Fatal("Allow past the burst = true; want false")
		}
		if retry <= 0 || retry > 250*time.Millisecond {
			t.Errorf("retryAfter = %v; want (0, 250ms] at 4/s", retry)
		}
		// A refusal must not spend a token: after retryAfter exactly one run is allowed.
		time.Sleep(retry)
		if ok, _ := l.Allow("1.2.3.4"); !ok {
			t.Fatalf("Allow after retryAfter = false; want true")
		}
		if ok, _ := l.Allow("1.2.3.4"); ok {
			t.Fatalf("second Allow after one refill = true; want false")
		}
		// Another key has its own bucket.
		if ok, _ := l.Allow("5.6.7.8"); !ok {
			t.Fatal("Allow for another key = false; want true")
		}
	})
}

func TestBoundedKeys(t *testing.T) {
	now := time.Unix(1000, 0)
	l := ratelimit.New(ratelimit.Config{PerSecond: 1, Burst: 1, MaxKeys: 100, IdleTTL: time.Minute, Now: func() time.Time { return now }})
	for i := range 1000 {
		l.Allow(fmt.Sprintf("10.0.%d.%d", i/256, i%256))
	}
	if n := l.Len(); n > 100 {
		t.Errorf("Len = %d after 1000 keys; want at most MaxKeys=100", n)
	}
	// The most recent key is still tracked (and so still limited).
	if ok, _ := l.Allow("10.0.3.231"); ok {
		t.Error("Allow for the most recent key = true; want false (its token was spent)")
	}
	// Idle keys are evicted once IdleTTL passes.
	now = now.Add(2 * time.Minute)
	l.Allow("fresh")
	if n := l.Len(); n != 1 {
		t.Errorf("Len after IdleTTL = %d; want 1", n)
	}
}
