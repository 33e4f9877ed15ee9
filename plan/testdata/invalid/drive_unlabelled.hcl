# A drive block without its name is reported once, for its name; the plan
# is not also said to have no drive.

drive { # ERROR: Missing name for drive
  size     = "16MiB"
  writable = true
}
