# The workload mixes shipped with drivebench, usable in any plan by name:
# profile "oltp" { mix = "sql-90-10" ... }.
#
# They approximate the synthetic database and VDI workloads of published
# SSD reviews (StorageReview's vdbench "SQL", "Oracle" and "VDI" profiles),
# whose exact definitions are not published. The read share of the
# "90-10" and "80-20" variants follows their names; transfer sizes, random
# shares and skew are typical of such workloads, not copies of them.
# Results are comparable between drives run with the same mix, not with
# the reviews' figures.

mix "sql" {
  description = "OLTP database, approximation: mostly 8 KiB pages, 70 % reads, 80 % of I/O on 20 % of the data."
  read_pct    = 70
  random_pct  = 100
  bs_split    = { "4KiB" = 10, "8KiB" = 70, "64KiB" = 20 }
  zones       = [{ access_pct = 80, region_pct = 20 }, { access_pct = 20, region_pct = 80 }]
}

mix "sql-90-10" {
  description = "OLTP database, 90 % reads, approximation."
  read_pct    = 90
  random_pct  = 100
  bs_split    = { "4KiB" = 10, "8KiB" = 70, "64KiB" = 20 }
  zones       = [{ access_pct = 80, region_pct = 20 }, { access_pct = 20, region_pct = 80 }]
}

mix "sql-80-20" {
  description = "OLTP database, 80 % reads, approximation."
  read_pct    = 80
  random_pct  = 100
  bs_split    = { "4KiB" = 10, "8KiB" = 70, "64KiB" = 20 }
  zones       = [{ access_pct = 80, region_pct = 20 }, { access_pct = 20, region_pct = 80 }]
}

mix "oracle" {
  description = "Oracle database, approximation: 8 KiB blocks with multiblock reads and log writes, 70 % reads, 90 % random."
  read_pct    = 70
  random_pct  = 90
  bs_split    = { "4KiB" = 5, "8KiB" = 75, "64KiB" = 10, "128KiB" = 10 }
  zones       = [{ access_pct = 80, region_pct = 20 }, { access_pct = 20, region_pct = 80 }]
}

mix "oracle-90-10" {
  description = "Oracle database, 90 % reads, approximation."
  read_pct    = 90
  random_pct  = 90
  bs_split    = { "4KiB" = 5, "8KiB" = 75, "64KiB" = 10, "128KiB" = 10 }
  zones       = [{ access_pct = 80, region_pct = 20 }, { access_pct = 20, region_pct = 80 }]
}

mix "oracle-80-20" {
  description = "Oracle database, 80 % reads, approximation."
  read_pct    = 80
  random_pct  = 90
  bs_split    = { "4KiB" = 5, "8KiB" = 75, "64KiB" = 10, "128KiB" = 10 }
  zones       = [{ access_pct = 80, region_pct = 20 }, { access_pct = 20, region_pct = 80 }]
}

mix "vdi-fc-boot" {
  description = "VDI full clones booting, approximation: read-heavy, small to medium transfers over each clone's own copy."
  read_pct    = 85
  random_pct  = 80
  bs_split    = { "4KiB" = 35, "8KiB" = 10, "16KiB" = 10, "32KiB" = 15, "64KiB" = 30 }
}

mix "vdi-fc-initial-login" {
  description = "VDI full clones, first login (profiles created): write-heavy, approximation."
  read_pct    = 35
  random_pct  = 85
  bs_split    = { "4KiB" = 45, "8KiB" = 15, "16KiB" = 10, "32KiB" = 10, "64KiB" = 20 }
}

mix "vdi-fc-monday-login" {
  description = "VDI full clones, login after a weekend (caches cold): mixed, approximation."
  read_pct    = 55
  random_pct  = 85
  bs_split    = { "4KiB" = 40, "8KiB" = 15, "16KiB" = 10, "32KiB" = 10, "64KiB" = 25 }
}

mix "vdi-lc-boot" {
  description = "VDI linked clones booting from a shared replica, approximation: read-heavy and concentrated on the replica."
  read_pct    = 90
  random_pct  = 80
  bs_split    = { "4KiB" = 35, "8KiB" = 10, "16KiB" = 10, "32KiB" = 15, "64KiB" = 30 }
  zones       = [{ access_pct = 70, region_pct = 10 }, { access_pct = 30, region_pct = 90 }]
}

mix "vdi-lc-initial-login" {
  description = "VDI linked clones, first login (delta disks grow): write-heavy, approximation."
  read_pct    = 30
  random_pct  = 90
  bs_split    = { "4KiB" = 55, "8KiB" = 15, "16KiB" = 10, "32KiB" = 10, "64KiB" = 10 }
  zones       = [{ access_pct = 50, region_pct = 10 }, { access_pct = 50, region_pct = 90 }]
}

mix "vdi-lc-monday-login" {
  description = "VDI linked clones, login after a weekend: mixed, approximation."
  read_pct    = 50
  random_pct  = 90
  bs_split    = { "4KiB" = 45, "8KiB" = 15, "16KiB" = 10, "32KiB" = 10, "64KiB" = 20 }
  zones       = [{ access_pct = 60, region_pct = 10 }, { access_pct = 40, region_pct = 90 }]
}
