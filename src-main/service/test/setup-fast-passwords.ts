// vitest setup file: the suite's accounts hash their passwords cheaply (see passwords.ts).
import { lowerPasswordCostForTests } from '../core/accounts/passwords';

lowerPasswordCostForTests();
