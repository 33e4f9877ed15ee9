# Scales the AI plans down to seconds on a scratch folder, to check that
# they run end to end:
#
#   drivebench run -var-file examples/ai/smoke.vars.hcl examples/ai/dataloader.hcl
#   drivebench run -var-file examples/ai/smoke.vars.hcl examples/ai/checkpoint.hcl
#
# A scale of 0.0005 keeps 7 unet3d files (one batch), 1 resnet50 file and
# 263 cosmoflow files, and of a llama3-8b checkpoint a file of 4 MiB for
# each of its 8 ranks (52.5 MB, in whole 4 MiB transfers).

directory = "/tmp/drivebench-ai-smoke"
scale     = 0.0005
passes    = 1
