#!/usr/bin/env node
import { launch } from "../dist/launch.js";

launch("ollm-checkpoint");
