/**
 * Entry of the process `tessera develop` forks: the app itself, in
 * development mode. Its exit code tells the parent whether it booted.
 */
import { serve } from '../serve';

void serve('development').then((code) => process.exit(code));
