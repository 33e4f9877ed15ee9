drive "scratch" {
  size     = "16MiB"
  writable = true
}

profile "read" {
  rw      = "randread"
  runtime = "1s"
}

check "absolute" {
  script   = "/etc/hostname" # ERROR: Hook Script Outside The Plan Folder
  function = "check"
  profile  = "read"
}

check "dotdot" {
  script   = "../../../../../../../../etc/passwd" # ERROR: Hook Script Outside The Plan Folder
  function = "check"
  profile  = "read"
}

check "symlink" {
  script   = "hooks/outside.star" # ERROR: Hook Script Outside The Plan Folder
  function = "check"
  profile  = "read"
}
