# Scales the AI plans down to seconds on a scratch folder, to check that
# they run end to end:
#
#   drivebench run -var-file examples/ai/smoke.vars.hcl examples/ai/dataloader.hcl
#   drivebench run -var-file examples/ai/smoke.vars.hcl examples/ai/checkpoint.hcl
#
# A scale of 0.0005 keeps 7 unet3d files (one batch), 1 resnet50 file and
# 263 cosmoflow files, and of a llama3-8b checkpoint (52.5 MB: 6.56 MB a
# rank, rounded down to whole 4 MiB transfers) a file of 4 MiB for each of
# its 8 ranks, 33.55 MB a pass as the report gives it.

directory = "/tmp/drivebench-ai-smoke"
scale     = 0.0005
passes    = 1
