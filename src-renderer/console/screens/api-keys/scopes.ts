import type { Product } from '../../../../src-shared/catalog';
import { PRODUCT_LABEL } from '../../components/product-labels';

/** How the console describes each product scope; the chip shows the API's own scope name. */
export const SCOPE_INFO: Record<Product, { label: string; description: string }> = {
  human: { label: PRODUCT_LABEL.human, description: 'Is a real person in front of the camera.' },
  age: { label: PRODUCT_LABEL.age, description: 'Age estimation and age-gate checks.' },
  identity: { label: PRODUCT_LABEL.identity, description: 'Identity document checks.' },
  compliance: { label: 'Compliance & screening', description: 'KYC plus and sanctions screening.' },
};
