package payoutjobs

// workerEnv, when set, makes the test binary a worker process of the
// soak (see soak_test.go) instead of running tests.
const workerEnv = "PAYOUTJOBS_SOAK_WORKER"

func workerMain() int { return 2 }
