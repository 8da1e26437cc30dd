package api_test

import (
	"testing"

	"github.com/playground-dev/playground/sandbox/worker"
	"go.uber.org/goleak"
)

func TestMain(m *testing.M) {
	worker.ServeIfWorker() // the real pool of the end-to-end tests re-executes this test binary as its worker
	goleak.VerifyTestMain(m)
}
