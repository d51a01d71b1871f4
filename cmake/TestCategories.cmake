# The categories that slice the test suite; every test carries exactly one (README, "Tests").
#   unit     fast and on loopback only: pure classes, and the project's own processes and fakes
#   gui      the desktop's widgets and window (offscreen; the _xvfb twins also carry xvfb)
#   e2e      the real npm clients against the relay
#   llama    the real llama-server (built once by llama_setup, about 15 minutes)
#   fuzz     the libFuzzer targets
#   soak     randomized runs bounded in time rather than by cases
#   package  CPack and the installed files
set(SWITCHYARD_TEST_CATEGORIES unit gui e2e llama fuzz soak package)
