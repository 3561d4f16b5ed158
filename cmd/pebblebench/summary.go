// Copyright 2026 The pebblerf Authors. All rights reserved.

package main
