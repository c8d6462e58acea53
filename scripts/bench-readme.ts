// stub
export const updateReadme = () => 'not yet';
