// The table lives in the catalog (address rules need it); the verifier reads it from there.
export * from '../../../catalog/us-states';
