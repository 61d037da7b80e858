import { App } from 'aws-cdk-lib';
import { InventoryStack } from '../inventory.js';

// `cdk synth` (or `eddy serve --cdk`, which runs this without the CDK CLI) writes cdk.out/.
const app = new App();
new InventoryStack(app, 'Inventory');
app.synth();
