# A drive whose path is a folder that exists when the plan is loaded.
drive "folder" {
  path = "testdata/invalid/targets" # ERROR: Drive Path Is A Folder
}

profile "read" {
  rw      = "randread"
  runtime = "10s"
}
