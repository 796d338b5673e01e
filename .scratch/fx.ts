import { tigerZip, openAddressesCsv } from '../test/helpers/streets';
const dir = '/tmp/stx';
console.log(tigerZip(dir, '06075', [
  { name: 'Berry St', left: ['101', '199', '94107', 'O'], right: ['100', '198', '94107', 'E'], line: [[-122.40, 37.77], [-122.39, 37.776]] },
  { name: 'King St', right: ['200', '298', '94107'], line: [[-122.395, 37.777], [-122.39, 37.78]] },
  { name: 'Mission Bay Blvd N', left: ['1', '99', '94158', 'B'], line: [[-122.395, 37.77], [-122.39, 37.77]] },
]));
console.log(openAddressesCsv(dir, 'us-ca-sf.csv', [
  { lon: -122.3955, lat: 37.7765, number: '185', street: 'Berry St', postcode: '94107' },
  { lon: -122.3955, lat: 37.7765, number: '185', street: 'Berry St', unit: 'Apt 1', postcode: '94107' },
  { lon: -122.3955, lat: 37.7765, number: '185', street: 'Berry St', unit: 'Apt 2', postcode: '94107' },
  { lon: -122.39, lat: 37.7, number: '5', street: '', postcode: '94107' },
]));
