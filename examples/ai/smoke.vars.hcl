# Scales the AI plans down to seconds on a scratch folder, to check that
# they run end to end:
#
#   drivebench run -var-file examples/ai/smoke.vars.hcl examples/ai/dataloader.hcl

directory = "/tmp/drivebench-ai-smoke"
scale     = 0.0001
epochs    = 1
